#!/usr/bin/env python3
"""An S3-protocol server on loopback for the remote GeoParquet tests: moto's server mode
(Tests/Support/s3-server-env.sh makes its environment), with IAM access control on, so that
requests must carry a valid SigV4 signature of an access key it knows. Creates the bucket,
uploads the files, makes a user with an access key allowed to read, then turns authentication
on and writes {"port", "access_key_id", "secret_access_key"} to --info-file.

    python s3_server.py --info-file FILE --bucket NAME FILE|KEY=FILE... (a FILE under its base name)
"""
import argparse, json, os, socket, sys, time
import boto3, requests
from moto.server import ThreadedMotoServer

p = argparse.ArgumentParser()
p.add_argument("--info-file", required=True)
p.add_argument("--bucket", required=True)
p.add_argument("files", nargs="+")
args = p.parse_args()

with socket.socket() as s:      # a free port (moto's server takes a number)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
server.start()
endpoint = f"http://127.0.0.1:{port}"
setup = dict(endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="setup", aws_secret_access_key="setup")
s3 = boto3.client("s3", **setup)
s3.create_bucket(Bucket=args.bucket)
for item in args.files:
    key, _, path = item.rpartition("=") if "=" in item else (os.path.basename(item), "", item)
    s3.upload_file(path, args.bucket, key)
iam = boto3.client("iam", **setup)
iam.create_user(UserName="reader")
iam.put_user_policy(UserName="reader", PolicyName="read", PolicyDocument=json.dumps(
    {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}))
key = iam.create_access_key(UserName="reader")["AccessKey"]
# From here on every request is authenticated and its signature checked.
requests.post(f"{endpoint}/moto-api/reset-auth", data=b"0").raise_for_status()
tmp = args.info_file + ".tmp"
with open(tmp, "w") as f:
    json.dump({"port": port, "access_key_id": key["AccessKeyId"], "secret_access_key": key["SecretAccessKey"]}, f)
os.replace(tmp, args.info_file)
while True:
    time.sleep(3600)

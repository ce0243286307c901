#!/usr/bin/env python3
"""A loopback HTTP server with Range support (Python's http.server has none), for the remote
GeoParquet tests. Serves the files under --root; answers GET and HEAD with `Range: bytes=a-b`,
`bytes=a-` and `bytes=-n` (206 with Content-Range), 416 for a range past the end; 404 for a
missing file, 403 for any path under /forbidden/, a redirect to itself for any under /loop/; with --fail-first N, the first N requests get
503; with --reset-first N, the first N requests get no answer, their connection closed (logged
with status 0). With --stall, no request gets an answer (the connection kept open); with
--trickle, every answer's body is sent two bytes a second. Every request is appended to --log as
`METHOD path range status body_bytes`. The port it listens on (127.0.0.1, chosen by the system) is
written to --port-file once it is listening.

    range_server.py --root DIR --port-file FILE [--log FILE] [--fail-first N] [--reset-first N] [--stall] [--trickle]
"""
import argparse, os, re, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

args = None
lock = threading.Lock()
requests_seen = 0


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"   # keep-alive, as a client's connection reuse expects

    def log_message(self, *a):      # the request log is --log, not stderr
        pass

    def record(self, status, sent, rng):
        if args.log:
            with lock, open(args.log, "a") as f:
                f.write(f"{self.command} {self.path} {rng or '-'} {status} {sent}\n")

    def reply(self, status, body=b"", headers=(), rng=None):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and args.trickle:
            sent = 0
            try:
                for i in range(len(body)):
                    self.wfile.write(body[i:i + 1])
                    self.wfile.flush()
                    sent += 1
                    time.sleep(0.5)
            except OSError:   # the client gave up: logged with what it got
                self.close_connection = True
            return self.record(status, sent, rng)
        if self.command != "HEAD":
            self.wfile.write(body)
        self.record(status, len(body) if self.command != "HEAD" else 0, rng)

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        global requests_seen
        rng = self.headers.get("Range")
        with lock:
            requests_seen += 1
            n = requests_seen
        if args.stall:
            self.record(0, 0, rng)
            time.sleep(3600)   # the connection open, nothing sent: the client's limits end it
            return
        if n <= args.reset_first:
            self.close_connection = True
            return self.record(0, 0, rng)
        if n <= args.fail_first:
            return self.reply(503, b"try again\n", rng=rng)
        path = self.path.split("?", 1)[0]
        if path.startswith("/loop/"):
            return self.reply(302, b"", [("Location", self.path)], rng=rng)
        if path.startswith("/forbidden/"):
            return self.reply(403, b"<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>", rng=rng)
        full = os.path.realpath(os.path.join(args.root, path.lstrip("/")))
        if not full.startswith(os.path.realpath(args.root) + os.sep) or not os.path.isfile(full):
            return self.reply(404, b"not found\n", rng=rng)
        size = os.path.getsize(full)
        m = re.fullmatch(r"bytes=(\d*)-(\d*)", rng or "")
        if not m or (m.group(1) == "" and m.group(2) == ""):
            with open(full, "rb") as f:
                return self.reply(200, f.read(), [("Accept-Ranges", "bytes")], rng)
        if m.group(1) == "":
            start, end = max(0, size - int(m.group(2))), size - 1
        else:
            start = int(m.group(1))
            end = min(int(m.group(2)), size - 1) if m.group(2) else size - 1
        if start >= size or start > end:
            return self.reply(416, b"", [("Content-Range", f"bytes */{size}")], rng)
        with open(full, "rb") as f:
            f.seek(start)
            body = f.read(end - start + 1)
        self.reply(206, body, [("Content-Range", f"bytes {start}-{end}/{size}"), ("Accept-Ranges", "bytes")], rng)


def main():
    global args
    p = argparse.ArgumentParser()
    p.add_argument("--root", required=True)
    p.add_argument("--port-file", required=True)
    p.add_argument("--log")
    p.add_argument("--fail-first", type=int, default=0)
    p.add_argument("--reset-first", type=int, default=0)
    p.add_argument("--stall", action="store_true")
    p.add_argument("--trickle", action="store_true")
    args = p.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(tmp, args.port_file)   # whole or absent: the test polls for it
    server.serve_forever()


if __name__ == "__main__":
    main()

#!/usr/bin/env bash
# A Spark standalone cluster on 127.0.0.1 for tests and benchmarks: one master and N workers of one
# core each, every daemon in its own process group (so that it and its executors stop together).
#   distributed/local-cluster.sh start DIR [WORKERS]   prints the master's URL; logs and pids in DIR
#   distributed/local-cluster.sh kill DIR N            SIGKILL worker N and its executor
#   distributed/local-cluster.sh stop DIR              stops them all, by their process groups
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
command=$1 dir=$2
py=$("$here/venv.sh")
spark_home=$("$py" -c "import os, pyspark; print(os.path.dirname(pyspark.__file__))")
export SPARK_HOME=$spark_home PYSPARK_PYTHON=$py SPARK_LOG_DIR=$dir/logs
daemon() {  # daemon NAME CLASS ARGS...: started in its own session; its process group kept in NAME.pgid
  setsid "$spark_home/bin/spark-class" "${@:2}" >"$dir/$1.log" 2>&1 </dev/null &
  echo $! >"$dir/$1.pgid"
}
wait_for() {  # wait_for NAME TEXT
  for _ in $(seq 120); do grep -q "$2" "$dir/$1.log" 2>/dev/null && return 0; sleep 0.5; done
  echo "local-cluster: $1 did not start:" >&2; tail -20 "$dir/$1.log" >&2; return 1
}
case $command in
  start)
    mkdir -p "$dir"
    port=$("$py" -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
    daemon master org.apache.spark.deploy.master.Master --host 127.0.0.1 --port "$port" --webui-port 0
    wait_for master "I have been elected leader"
    for n in $(seq "${3:-2}"); do
      daemon "worker$n" org.apache.spark.deploy.worker.Worker --host 127.0.0.1 --cores 1 --memory 4g --webui-port 0 \
        --work-dir "$dir/worker$n" "spark://127.0.0.1:$port"
      wait_for "worker$n" "Successfully registered with master"
    done
    echo "spark://127.0.0.1:$port" ;;
  kill) kill -9 -- "-$(cat "$dir/worker$3.pgid")" ;;
  stop) for f in "$dir"/*.pgid; do [ -e "$f" ] && { kill -9 -- "-$(cat "$f")" 2>/dev/null || true; rm -f "$f"; }; done ;;
  *) echo "local-cluster: start, kill or stop" >&2; exit 2 ;;
esac

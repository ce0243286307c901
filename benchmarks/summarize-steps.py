"""The flyr-link processes of a distributed run, by step (benchmarks/distributed-overhead.sh): each
line of the time log is `wall user sys peak_kB command subcommand`."""
import collections
import sys

steps = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) >= 5 and f[0][0].isdigit():
        name = " ".join(f[4:6]) if f[4] in ("tile", "plan-share") else f[4]
        steps[name].append((float(f[0]), float(f[1]) + float(f[2]), int(f[3]) // 1024))
for name in ["plan-share scan", "plan-share frame", "plan-share measure", "plan", "tile measures", "tile sum", "tile link", "tile outputs", "run"]:
    t = steps.get(name, [])
    if t:
        w = [x[0] for x in t]
        print(f"  {name:18s} tasks {len(t):3d}  wall mean {sum(w) / len(w):7.2f} s  max {max(w):7.2f} s  "
              f"CPU {sum(x[1] for x in t):8.2f} s  peak {max(x[2] for x in t):5d} MB")
print(f"  all flyr-link processes: CPU {sum(x[1] for t in steps.values() for x in t):.2f} s")

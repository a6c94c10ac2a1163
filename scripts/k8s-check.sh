#!/usr/bin/env bash
# Checks the Kubernetes recipe (scripts/cluster/k8s/*.yaml) without a cluster:
# 1. schema: every object is validated, strictly (no unknown fields), against the Kubernetes
#    OpenAPI schema of version K8S (default 1.30.0) with kubernetes-validate (installed from
#    PyPI into a virtualenv under ~/.cache/puzzle-factory when missing). `kubectl apply
#    --dry-run=client` needs a reachable API server, which this check does not assume.
# 2. consistency: the Indexed Job's `completions` equals the N of `--shard $(JOB_COMPLETION_INDEX)/N`,
#    the merge Job lists exactly shard-0 ... shard-(N-1) of the folder the shards write, and
#    every pod mounts the claim that storage.yaml defines;
# 3. the commands themselves: each pod's args are run here, as the cluster would run them
#    (JOB_COMPLETION_INDEX = 0 ... N-1, /data a scratch folder), then the merge Job's: both
#    must succeed and the merged book must hold the order. Skip with RUN=0.
#
# Usage: scripts/k8s-check.sh        (K8S=1.31.0 scripts/k8s-check.sh for another version)
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
k8s=$here/scripts/cluster/k8s
version=${K8S:-1.30.0}
venv=${XDG_CACHE_HOME:-$HOME/.cache}/puzzle-factory/k8s-venv
if [ ! -x "$venv/bin/kubernetes-validate" ]; then
  python3 -m venv "$venv" 2>/dev/null || { apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null && python3 -m venv "$venv"; }
  "$venv/bin/pip" install -q "kubernetes-validate==1.31.0"
fi
echo "== schema (Kubernetes $version, strict)"
"$venv/bin/kubernetes-validate" --strict -k "$version" "$k8s"/*.yaml

echo "== consistency"
[ "${RUN:-1}" = 0 ] || . "$here/scripts/common.sh"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
"$venv/bin/python" - "$k8s" "$work" "${RUN:-1}" "${bin:-}" <<'PY'
import glob, os, re, subprocess, sys, csv
import yaml
k8s, work, run, binary = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4]
docs = [d for f in sorted(glob.glob(f"{k8s}/*.yaml")) for d in yaml.safe_load_all(open(f)) if d]
by_name = {d["metadata"]["name"]: d for d in docs}
shards, merge, pvc = by_name["puzzle-factory-shards"], by_name["puzzle-factory-merge"], by_name["puzzle-factory-data"]
fail = []
def pod(job):
    return job["spec"]["template"]["spec"]
def args(job):
    c = pod(job)["containers"][0]
    return c["command"] + c["args"]
sa = args(shards)
spec = sa[sa.index("--shard") + 1]
m = re.fullmatch(r"\$\(JOB_COMPLETION_INDEX\)/(\d+)", spec)
n = int(m.group(1)) if m else None
if n != shards["spec"]["completions"]:
    fail.append(f"--shard {spec} but completions {shards['spec']['completions']}")
if shards["spec"].get("completionMode") != "Indexed":
    fail.append("the shards Job is not Indexed")
out = sa[sa.index("--out") + 1]
folder = out.rsplit("/", 1)[0]
if out != f"{folder}/shard-$(JOB_COMPLETION_INDEX)":
    fail.append(f"shard --out {out} is not <folder>/shard-$(JOB_COMPLETION_INDEX)")
ma = args(merge)
listed = [a for a in ma[2:] if not a.startswith("--") and a != ma[ma.index("--out") + 1]]
want = [f"{folder}/shard-{k}" for k in range(n or 0)]
if listed != want:
    fail.append(f"merge lists {listed}, the shards write {want}")
for job in (shards, merge):
    claims = [v["persistentVolumeClaim"]["claimName"] for v in pod(job)["volumes"] if "persistentVolumeClaim" in v]
    if claims != [pvc["metadata"]["name"]]:
        fail.append(f"{job['metadata']['name']} mounts {claims}, storage.yaml defines {pvc['metadata']['name']}")
print(f"N = {n}, shards write {folder}/shard-K, merge into {ma[ma.index('--out') + 1]}: "
      + ("consistent" if not fail else "; ".join(fail)))
if run and not fail:
    data = os.path.join(work, "data")
    def local(a, index=None):
        a = [x.replace("$(JOB_COMPLETION_INDEX)", str(index)) if index is not None else x for x in a]
        return [binary] + [x.replace("/data", data, 1) if x.startswith("/data") else x for x in a[1:]]
    for k in range(n):
        r = subprocess.run(local(sa, k), capture_output=True, text=True)
        print(f"pod {k}: {' '.join(sa[1:])} → exit {r.returncode}")
        if r.returncode:
            fail.append(f"pod {k}: {r.stderr.strip()}")
    r = subprocess.run(local(ma), capture_output=True, text=True)
    print(f"merge pod: exit {r.returncode} {r.stderr.strip()}")
    if r.returncode:
        fail.append(f"merge: {r.stderr.strip()}")
    else:
        book = local(ma)[-1]
        if "--quota" in sa:
            q = dict(p.split("=") for p in sa[sa.index("--quota") + 1].split(","))
            for g in ("easy", "medium", "hard", "expert"):
                rows = sum(1 for _ in csv.DictReader(open(f"{book}/book-{g}.csv")))
                if rows != int(q.get(g, 0)):
                    fail.append(f"book-{g}: {rows} puzzles, ordered {q.get(g, 0)}")
            print("merged book holds the order" if not fail else "")
sys.exit(1 if fail else 0)
PY
echo "k8s recipe: ok"

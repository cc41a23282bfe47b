#!/usr/bin/env bash
# Regenerate examples/data/sensorless_fit.json, the fit.json used by the `export xml` examples
# (docs/cli.md, "export"): a --problem sensorless lugre-asym fit of a synthetic, noise-free
# 2 s, 100 Hz record of reference 000's form (t, current, velocity, torque).
#
#   bash scripts/make_sensorless_fit.sh [path/to/frictionlab]
#
# The record: the 1 Hz sine of examples/data/sine_velocity.csv scaled to 1 rad/s drives a LuGre
# joint (S0 = 500 Nm/rad, S1 = 0.8 Nm s/rad, Kw = 0.5 Nm s/rad, Fc = 1 / 0.8 Nm, Fs = 1.5 / 1.2 Nm
# for v > 0 / v < 0, Vth = 0.1 rad/s, alpha = 1); the motor current is
# i = 0.8 sin(2 pi 1.7 t) + 0.6 v [A] and the joint torque Km*i - friction with Km = 2 Nm/A.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$root/build/apps/frictionlab/frictionlab}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/joint_lugre.json" <<'JSON'
{"model": "lugre",
 "params": {"sigma0": 500, "sigma1": 0.8, "sigma2": 0.5, "Fc_pos": 1.0, "Fc_neg": 0.8,
            "Fs_pos": 1.5, "Fs_neg": 1.2, "vs": 0.1, "alpha": 1}}
JSON
awk -F, 'NR == 1 || /^#/ || $1 == "t" { if ($1 == "t") print "t,v"; next }
         { printf "%s,%.10g\n", $1, 200 * $2 }' "$root/examples/data/sine_velocity.csv" \
  > "$tmp/velocity.csv"
"$bin" simulate --model "$tmp/joint_lugre.json" --input "$tmp/velocity.csv" \
  --output "$tmp/friction.csv" 2> /dev/null
awk -F, 'BEGIN { pi = 3.141592653589793; km = 2 }
         NR == 1 { print "t,current,velocity,torque"; next }
         { i = 0.8 * sin(2 * pi * 1.7 * $1) + 0.6 * $2
           printf "%s,%.12g,%s,%.12g\n", $1, i, $2, km * i - $3 }' "$tmp/friction.csv" \
  > "$tmp/sensorless_record.csv"
(cd "$tmp" && "$bin" fit --input sensorless_record.csv --problem sensorless --model lugre-asym \
  --velocity velocity --force torque --current current --out fit --no-plots > /dev/null 2>&1)
cp "$tmp/fit/fit.json" "$root/examples/data/sensorless_fit.json"
echo "wrote $root/examples/data/sensorless_fit.json"

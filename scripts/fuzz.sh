#!/usr/bin/env bash
# Build the libFuzzer targets of fuzz/ (clang-15, ASan + UBSan + libFuzzer; own build directory,
# ccache) and run each for a given time (docs/fuzzing.md).
#   bash scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default: 60 s, every target)
# Every run uses -timeout=1 (an input taking over 1 s is a hang), -rss_limit_mb=2048 and leak
# detection. Exits 1 on any finding (crash, sanitizer report, leak, hang, out of memory, an
# exception other than io::InputError, a failed check), printing the path of the input; 0 when
# every target ran its time clean. The working corpora stay in BUILD/corpus/TARGET (seeded from
# fuzz/corpus/, examples/data and ../shared/data on every run), findings in BUILD/findings/.
# The target fleet_config is Python (fuzz/fuzz_fleet_config.py, a standard-library mutation fuzzer
# of the fleet configuration reader): it needs no build and runs for the same time.
# Environment: FRICTIONLAB_FUZZ_BUILD_DIR (default build-fuzz), CXX_FUZZ / CC_FUZZ (default
# clang++-15 / clang-15).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
seconds=${1:-60}
[ $# -gt 0 ] && shift
case "$seconds" in '' | *[!0-9]*) echo "fuzz.sh: SECONDS_PER_TARGET must be a whole number, got '$seconds'" >&2; exit 2 ;; esac
all=(csv model_json system_json friction_source lugre_group joint_json servo_log servo_params mat fleet_config)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")
for t in "${targets[@]}"; do
  case " ${all[*]} " in *" $t "*) ;; *) echo "fuzz.sh: unknown target '$t' (targets: ${all[*]})" >&2; exit 2 ;; esac
done

dir=${FRICTIONLAB_FUZZ_BUILD_DIR:-build-fuzz}
build_start=$(date +%s)
mkdir -p "$dir"
cxx_targets=()
for t in "${targets[@]}"; do [ "$t" = fleet_config ] || cxx_targets+=("$t"); done
if [ ${#cxx_targets[@]} -gt 0 ]; then
launcher=()
if command -v ccache > /dev/null; then
  # Paths relative to the tree, and the directory left out of the hash despite the line tables,
  # so that another checkout (CI's fresh clone) hits the cache.
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" \
  -DCMAKE_CXX_COMPILER="${CXX_FUZZ:-clang++-15}" -DCMAKE_C_COMPILER="${CC_FUZZ:-clang-15}" \
  "${launcher[@]}" -DFRICTIONLAB_BUILD_FUZZERS=ON -DFRICTIONLAB_BUILD_TESTS=OFF \
  -DFRICTIONLAB_BUILD_APPS=OFF -DFRICTIONLAB_BUILD_BENCHMARKS=OFF -DFRICTIONLAB_PYTHON=OFF > "$dir/configure.log" 2>&1 ||
  { cat "$dir/configure.log" >&2; exit 1; }
cmake --build "$dir" -j"$(nproc)" --target frictionlab_fuzzers
echo "fuzz: build $(( $(date +%s) - build_start )) s"
fi

# Seeds: the committed corpus of a target, then the example and reference files of its format
# (files over 64 KB are left out: they slow every mutation and add no coverage).
seeds() {
  case "$1" in
    csv) echo fuzz/corpus/csv/* examples/data/*.csv ;;
    model_json | system_json | friction_source | lugre_group | joint_json)
      echo fuzz/corpus/"$1"/* examples/data/*.json fuzz/corpus/joint_json/* ;;
    servo_log) echo fuzz/corpus/servo_log/* ;;
    servo_params) echo fuzz/corpus/servo_params/* ../shared/data/servo_xl330/reference_params/*.json ;;
    mat) ;;  # written by make_mat_seeds below
  esac
}

findings="$dir/findings"
mkdir -p "$findings"
failed=()
summary=()
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for t in "${targets[@]}"; do
  if [ "$t" = fleet_config ]; then
    log="$dir/fuzz-$t.log"
    echo "fuzz: $t for ${seconds} s ..."
    set +e
    /usr/bin/python3 fuzz/fuzz_fleet_config.py --seconds "$seconds" --findings "$findings" > "$log" 2>&1
    rc=$?
    set -e
    line=$(grep '^fleet_config ' "$log" | tail -1)
    line=${line:-fleet_config     (no summary)}
    if [ $rc -ne 0 ]; then
      echo "fuzz: FINDING in $t (exit $rc); log $log" >&2
      tail -n 60 "$log" >&2
      failed+=("$t")
      line="$line  FINDING (exit $rc)"
    fi
    summary+=("$line")
    continue
  fi
  corpus="$dir/corpus/$t"
  mkdir -p "$corpus"
  for f in $(seeds "$t"); do
    [ -f "$f" ] && [ "$(stat -c %s "$f")" -le 65536 ] && cp -f "$f" "$corpus/seed-$(basename "$f")"
  done
  [ "$t" = mat ] && "$dir/fuzz/make_mat_seeds" "$corpus"
  chmod -R u+w "$corpus"
  dict=()
  case "$t" in
    csv) dict=(-dict=fuzz/dict/csv.dict) ;;
    mat) ;;
    *) dict=(-dict=fuzz/dict/json.dict) ;;
  esac
  max_len=8192
  [ "$t" = mat ] && max_len=16384
  log="$dir/fuzz-$t.log"
  echo "fuzz: $t for ${seconds} s ..."
  set +e
  "$dir/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=1 -rss_limit_mb=2048 -detect_leaks=1 \
    -max_len="$max_len" -print_final_stats=1 -artifact_prefix="$findings/$t-" "${dict[@]}" \
    "$corpus" > "$log" 2>&1
  rc=$?
  set -e
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  line=$(printf '%-16s %10s execs %8s exec/s  cov %6s  corpus %5s files' "$t" "${runs:-?}" "${rate:-?}" \
         "${cov:-?}" "$(ls "$corpus" | wc -l)")
  if [ $rc -ne 0 ]; then
    echo "fuzz: FINDING in $t (exit $rc); log $log" >&2
    tail -n 60 "$log" >&2
    grep -h 'Test unit written to\|^artifact_prefix' "$log" >&2 || true
    failed+=("$t")
    line="$line  FINDING (exit $rc)"
  fi
  summary+=("$line")
done
printf '%s\n' "fuzz: summary (${seconds} s per target)" "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]}; inputs in $findings/" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} targets clean"

#!/usr/bin/env bash
# Mutation score of the rule components (mutmut), printed as a figure. Not run in CI.
#
# mutmut names mutants by file path, which cannot follow pyproject's mapping of engine/ to
# cardspec.engine, so this lays the same files out as cardspec/engine/... in a scratch tree
# and runs mutmut there, with the fast rule tests as the killers (see [tool.mutmut]).
# Needs: a Python with the project's dependencies and mutmut==3.8.1, where cardspec itself
# is NOT installed (pass it as $PY; default: python3).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
py=${PY:-python3}
work=${WORK:-$(mktemp -d)}
mkdir -p "$work/cardspec"
cp "$repo"/cardspec/*.py "$repo"/cardspec/py.typed "$work/cardspec/"
cp -r "$repo/engine" "$work/cardspec/engine"
cp -r "$repo/verification" "$work/cardspec/verification"
cp -r "$repo/spec" "$work/cardspec/spec"
cp -r "$repo/tests" "$repo/docs" "$work/"
sed -e 's#"engine/#"cardspec/engine/#g' "$repo/pyproject.toml" > "$work/pyproject.toml"
# conftest finds the docs beside the tests; the source texts come from CARDSPEC_SOURCES
export CARDSPEC_SOURCES=${CARDSPEC_SOURCES:-$repo/../shared/sources}
cd "$work"
"$py" -m mutmut run --max-children "${JOBS:-2}" > mutmut.log 2>&1 || { tail -30 mutmut.log; exit 1; }
"$py" -m mutmut results --all true > results.txt 2>&1 || true
killed=$(grep -c ': killed' results.txt || true)
survived=$(grep -c ': survived' results.txt || true)
other=$(grep -vc -e ': killed' -e ': survived' results.txt || true)
total=$((killed + survived))
echo "mutants: killed $killed, survived $survived, other (timeout/suspicious/no tests) $other"
if [ "$total" -gt 0 ]; then
  echo "mutation score: $(python3 -c "print(f'{100*$killed/$total:.1f}%')") of $total killable"
fi
echo "details: $work/results.txt"

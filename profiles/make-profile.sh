#!/usr/bin/env bash
# Rebuild printgen-fogra39.icc, the press profile printgen ships, from FOGRA39 characterization data.
# Needs Debian's argyll (colprof) and icc-profiles-free (FOGRA39L.ti3). Run once; the result is committed.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp /usr/share/color/icc/FOGRA39L.ti3 "$work/printgen-fogra39.ti3"
(cd "$work" && colprof -qm -kr -l300 -L95 -nc \
    -D "printgen FOGRA39 coated, 300% TAC (built with ArgyllCMS from FOGRA39L.ti3)" \
    -C "Built from FOGRA39L.ti3 of Debian's icc-profiles-free (Zlib licence, Kai-Uwe Behrmann). Altered: an ICC profile made from the data." \
    printgen-fogra39 >/dev/null)
cp "$work/printgen-fogra39.icc" printgen-fogra39.icc

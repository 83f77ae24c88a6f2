#!/usr/bin/env bash
# Regenerate testdata/clienthello from real TLS clients. See README.md in this directory.
# usage: tools/record-clienthellos/record.sh [--out DIR] [--only openssl,curl,...]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
command -v python3 >/dev/null || { echo "record.sh: python3 is required" >&2; exit 2; }
command -v openssl >/dev/null || { echo "record.sh: openssl is required (it is the server)" >&2; exit 2; }
exec python3 "$here/record.py" "$@"

#!/usr/bin/env bash
# needs: dp-train
# Every example of the README, the man pages and the tools' --help runs as written
# (sizes shrunk, see tests/cli/examples.py) and exits with the status it promises.
set -u
exec "$PYTHON" "$SRC/tests/cli/examples.py" "$BIN" "$SRC"

# Sourced by scripts/run and scripts/test: make .venv and install Cairn into it.
#
# Creates .venv with $PYTHON (default python3) if it is missing, and installs the project with its
# dev extras, pinned by constraints.txt, only when pyproject.toml or constraints.txt changed since
# the last install (a stamp of both files' hash in .venv/.cairn-installed).  Sets VPY to the
# virtualenv's python.  $1 names the calling script in what it prints.
cairn_venv() {
    local who="$1"
    local python="${PYTHON:-python3}"
    if [ ! -x .venv/bin/python ]; then
        echo "$who: creating .venv with $("$python" --version)"
        "$python" -m venv .venv
    fi
    VPY=.venv/bin/python
    local stamp=.venv/.cairn-installed
    local want
    want="$(cat pyproject.toml constraints.txt 2>/dev/null | sha256sum | cut -d' ' -f1)"
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
        echo "$who: installing dependencies (pinned by constraints.txt)"
        "$VPY" -m pip install --quiet --disable-pip-version-check -c constraints.txt -e ".[dev]"
        echo "$want" > "$stamp"
    fi
}

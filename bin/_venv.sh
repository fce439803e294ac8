# Sourced by bin/run and bin/test: make .venv with Python 3.11 and keep it in step with a
# requirements file. A stamp holding the requirements' hash makes the check instant when
# nothing changed, so repeated runs start at once.

find_python311() {
    local candidate
    for candidate in "${PYTHON:-}" python3.11 python3; do
        [ -n "$candidate" ] || continue
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    return 1
}

# ensure_venv REQUIREMENTS_FILE
ensure_venv() {
    local requirements=$1 python stamp wanted
    if [ ! -x .venv/bin/python ]; then
        python=$(find_python311) || {
            echo "Python 3.11 is needed (python3.11 on PATH, or set PYTHON=/path/to/python3.11)." >&2
            exit 1
        }
        echo "Creating .venv with $python"
        "$python" -m venv .venv
    fi
    stamp=".venv/.installed-$(basename "$requirements")"
    # Hash every requirements file: requirements-test.txt includes requirements.txt.
    wanted=$(cat requirements*.txt | sha256sum | cut -d' ' -f1)
    if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
        echo "Installing $requirements into .venv"
        .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$requirements"
        echo "$wanted" >"$stamp"
    fi
    export VIRTUAL_ENV="$PWD/.venv"
    export PATH="$VIRTUAL_ENV/bin:$PATH"
}

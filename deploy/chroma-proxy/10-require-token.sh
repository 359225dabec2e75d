#!/bin/sh
# Runs before the nginx image renders its templates (/docker-entrypoint.d/, in name order; the
# template step is 20-envsubst-on-templates.sh). Without this check an unset CHROMA_TOKEN would leave
# the literal text "${CHROMA_TOKEN}" in the rule, a token anyone can read in this repository.
set -eu
token="${CHROMA_TOKEN:-}"
if [ "${#token}" -lt 32 ]; then
    echo "chroma-proxy: CHROMA_TOKEN must be set, at least 32 characters (openssl rand -hex 32)" >&2
    exit 1
fi
case "$token" in
    *[!A-Za-z0-9_-]*)
        # A quote, a space or a $ would end or change the nginx string the token is compared with.
        echo "chroma-proxy: CHROMA_TOKEN may hold only A-Z, a-z, 0-9, _ and -" >&2
        exit 1
        ;;
esac

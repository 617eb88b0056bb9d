#!/bin/sh
# Writes a throwaway PKI for the TLS tests into DIR (valid two days, P-256 keys, nothing kept):
#   ca.pem            the test CA the server under test is told to trust
#   localhost.pem/key issued by ca.pem for DNS:localhost and IP:127.0.0.1
#   dns-only.pem/key  issued by ca.pem for DNS:localhost only (not valid for the address 127.0.0.1)
#   wrong-host.pem/key issued by ca.pem for DNS:mail.other.test only
#   untrusted.pem/key issued by other-ca.pem (never trusted) for DNS:localhost and IP:127.0.0.1
# Usage: make-test-pki.sh DIR
set -eu
dir=$1
mkdir -p "$dir"
cd "$dir"

newkey="-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"

ca() {
    # shellcheck disable=SC2086
    openssl req -x509 $newkey -keyout "$1.key" -out "$1.pem" -days 2 -subj "/CN=Quartet test $1" \
        -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign 2>/dev/null
}

# leaf NAME CA SUBJECT_ALT_NAMES
leaf() {
    # shellcheck disable=SC2086
    openssl req $newkey -keyout "$1.key" -out "$1.csr" -subj "/CN=quartet test leaf" 2>/dev/null
    printf 'subjectAltName=%s\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' "$3" > "$1.ext"
    openssl x509 -req -in "$1.csr" -CA "$2.pem" -CAkey "$2.key" -CAcreateserial -days 2 -extfile "$1.ext" \
        -out "$1.pem" 2>/dev/null
    rm -f "$1.csr" "$1.ext"
}

ca ca
ca other-ca
leaf localhost ca "DNS:localhost,IP:127.0.0.1"
leaf dns-only ca "DNS:localhost"
leaf wrong-host ca "DNS:mail.other.test"
leaf untrusted other-ca "DNS:localhost,IP:127.0.0.1"

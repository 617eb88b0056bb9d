/* The low-level digest calls (SHA1_Init/Update/Final, MD5_*) are deprecated in OpenSSL 3 but kept there:
   HMACSHA1Key copies prepared SHA-1 states per request, which EVP offers only with a context allocation
   and copy per call. Without this the deprecation shows as a warning at every use. */
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <openssl/md5.h>

// OpenSSL's libcrypto, for SHA-1 and SHA-256 only: it uses the CPU's SHA instructions where
// they exist, several times faster than a portable implementation.
// SHA1_Init/Update/Final are deprecated in OpenSSL 3 in favour of EVP, but EVP looks the digest up
// (under a lock) on every call: for a million short UUID names the direct functions are far faster.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/evp.h>
#include <openssl/sha.h>

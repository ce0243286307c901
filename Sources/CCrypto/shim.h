// OpenSSL's libcrypto, for SHA-1 and SHA-256 only: it uses the CPU's SHA instructions where
// they exist, several times faster than a portable implementation.
#include <openssl/evp.h>
#include <openssl/sha.h>

#include "server/tls_files.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <fstream>
#include <iterator>
#include <memory>

#include "absl/strings/str_cat.h"

namespace walk::server {
namespace {

absl::StatusOr<std::string> ReadPem(const std::string& path, const char* flag) {
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) {
    return absl::InvalidArgumentError(absl::StrCat(flag, ": cannot read ", path));
  }
  if (text.find("-----BEGIN ") == std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat(flag, ": ", path, " is not a PEM file"));
  }
  return text;
}

absl::Status CheckPairing(const TlsFiles& files) {
  if (files.cert.empty() != files.key.empty()) {
    return absl::InvalidArgumentError(files.cert.empty() ? "--tls-key: needs --tls-cert"
                                                         : "--tls-cert: needs --tls-key");
  }
  if (!files.client_ca.empty() && files.cert.empty()) {
    return absl::InvalidArgumentError("--tls-client-ca: needs --tls-cert and --tls-key");
  }
  return absl::OkStatus();
}

// OpenSSL's oldest queued error as text, the queue then cleared; "no detail" when it is empty.
std::string OpensslError() {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return "no detail";
  char text[256];
  ERR_error_string_n(code, text, sizeof(text));
  return text;
}

// Refuses a passphrase: walkd reads keys unattended, so an encrypted key is not read.
int NoPassphrase(char*, int, int, void*) { return 0; }

struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
struct X509Free {
  void operator()(X509* cert) const { X509_free(cert); }
};
struct KeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};

std::unique_ptr<BIO, BioFree> PemBio(const std::string& pem) {
  return std::unique_ptr<BIO, BioFree>(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

// The certificate and the key are what their flags say, and a pair: the certificate's public key
// is the key's. gRPC would only fail to listen, naming neither.
absl::Status CheckKeyPair(const TlsFiles& files, const std::string& cert_pem,
                          const std::string& key_pem) {
  auto cert_bio = PemBio(cert_pem);
  std::unique_ptr<X509, X509Free> cert(
      PEM_read_bio_X509(cert_bio.get(), nullptr, NoPassphrase, nullptr));
  if (cert == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("--tls-cert: ", files.cert,
                                                   " holds no certificate OpenSSL can read (",
                                                   OpensslError(), ")"));
  }
  auto key_bio = PemBio(key_pem);
  std::unique_ptr<EVP_PKEY, KeyFree> key(
      PEM_read_bio_PrivateKey(key_bio.get(), nullptr, NoPassphrase, nullptr));
  if (key == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("--tls-key: ", files.key, " holds no private key OpenSSL can read (",
                     OpensslError(), "; an encrypted key must be decrypted first)"));
  }
  if (X509_check_private_key(cert.get(), key.get()) != 1) {
    ERR_clear_error();
    return absl::InvalidArgumentError(absl::StrCat("--tls-key: ", files.key,
                                                   " is not the key of --tls-cert ", files.cert,
                                                   " (the certificate holds another public key)"));
  }
  return absl::OkStatus();
}

// The client CA file holds a certificate at least.
absl::Status CheckClientCa(const std::string& path, const std::string& pem) {
  auto bio = PemBio(pem);
  std::unique_ptr<X509, X509Free> cert(
      PEM_read_bio_X509(bio.get(), nullptr, NoPassphrase, nullptr));
  if (cert == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("--tls-client-ca: ", path,
                                                   " holds no certificate OpenSSL can read (",
                                                   OpensslError(), ")"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> GrpcServerCredentials(
    const TlsFiles& files) {
  if (absl::Status paired = CheckPairing(files); !paired.ok()) return paired;
  if (!files.enabled()) return grpc::InsecureServerCredentials();
  absl::StatusOr<std::string> cert = ReadPem(files.cert, "--tls-cert");
  if (!cert.ok()) return cert.status();
  absl::StatusOr<std::string> key = ReadPem(files.key, "--tls-key");
  if (!key.ok()) return key.status();
  if (absl::Status pair = CheckKeyPair(files, *cert, *key); !pair.ok()) return pair;
  grpc::SslServerCredentialsOptions options;
  options.pem_key_cert_pairs.push_back({*key, *cert});
  if (!files.client_ca.empty()) {
    absl::StatusOr<std::string> ca = ReadPem(files.client_ca, "--tls-client-ca");
    if (!ca.ok()) return ca.status();
    if (absl::Status read = CheckClientCa(files.client_ca, *ca); !read.ok()) return read;
    options.pem_root_certs = *ca;
    options.client_certificate_request = GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
  }
  return grpc::SslServerCredentials(options);
}

}  // namespace walk::server

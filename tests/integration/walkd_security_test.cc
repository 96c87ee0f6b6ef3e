// walkd's TLS and token on a real server: calls without the token, or with another, are refused
// (writes always, reads with --auth-reads; health stays open); TLS on both ports, and mutual TLS
// refusing clients without a certificate or with one another CA signed; walkctl's flags reach it.
// Refused at start, naming the flag: a certificate and a key that are not a pair, and a token file
// others may read. Certificates are made with the openssl tool into a temp folder.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "client/connection.h"
#include "client/walk_client.h"
#include "client/walk_stream.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/integration/walkd_process.h"
#include "walk/v1/walk.grpc.pb.h"

namespace walk {
namespace {

using testing::RunCommand;

constexpr char kToken[] = "s3cret-token-of-walkd-0123456789";

// A CA, walkd's certificate (for 127.0.0.1 and localhost), a client certificate the CA signed,
// and a client certificate of another CA: made once.
struct Certificates {
  std::string dir;
  std::string Path(const std::string& name) const { return dir + "/" + name; }
};

void Openssl(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"/usr/bin/openssl"};
  argv.insert(argv.end(), args.begin(), args.end());
  const testing::CommandResult made = RunCommand(argv);
  ASSERT_EQ(made.exit_code, 0) << made.output;
}

// A self-signed CA named `name` in `dir`: name.pem and name.key.
void MakeCa(const std::string& dir, const std::string& name) {
  Openssl({"req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
           "-days", "2", "-subj", "/CN=" + name, "-keyout", dir + "/" + name + ".key", "-out",
           dir + "/" + name + ".pem"});
}

// A certificate for `name` that `ca` signed, with `san` as its subject alternative names.
void MakeSigned(const std::string& dir, const std::string& name, const std::string& ca,
                const std::string& san) {
  const std::string ext = dir + "/" + name + ".ext";
  std::ofstream(ext) << "subjectAltName=" << san << "\n";
  Openssl({"req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj",
           "/CN=" + name, "-keyout", dir + "/" + name + ".key", "-out", dir + "/" + name + ".csr"});
  Openssl({"x509", "-req", "-in", dir + "/" + name + ".csr", "-CA", dir + "/" + ca + ".pem",
           "-CAkey", dir + "/" + ca + ".key", "-CAcreateserial", "-days", "2", "-extfile", ext,
           "-out", dir + "/" + name + ".pem"});
}

// A token file as the docs make one: its owner's alone (mode 0600).
void WriteTokenFile(const std::string& path, const std::string& token) {
  std::ofstream(path) << token << "\n";
  chmod(path.c_str(), 0600);
}

const Certificates& Certs() {
  static const Certificates* certs = [] {
    auto* c = new Certificates{testing::FreshTempDir("walkd-security-it", "certs")};
    MakeCa(c->dir, "ca");
    MakeSigned(c->dir, "server", "ca", "IP:127.0.0.1,DNS:localhost");
    MakeSigned(c->dir, "client", "ca", "DNS:walk-client");
    MakeCa(c->dir, "rogue-ca");
    MakeSigned(c->dir, "rogue", "rogue-ca", "DNS:walk-client");
    WriteTokenFile(c->Path("token"), kToken);
    WriteTokenFile(c->Path("wrong-token"), "another-token-entirely-0000");
    WriteTokenFile(c->Path("short-token"), "short");
    return c;
  }();
  return *certs;
}

// A live world ("yard", 7 x 5 with a gate) for UpdateBlockers, the one write.
std::string LiveWorlds() {
  const std::string dir = testing::FreshTempDir("walkd-security-it", "live");
  std::filesystem::create_directories(dir + "/yard");
  std::ofstream(dir + "/yard/map.map") << "type octile\nheight 5\nwidth 7\nmap\n"
                                          ".......\n.......\n.......\n.......\n.......\n";
  std::ofstream(dir + "/yard/layers.txt") << "building 10 0 2 7 3\n"
                                             "gate 20 10 3 2 4 3 open\n";
  return dir;
}

// A TCP connection to HOST:PORT that sends nothing; -1 when it fails.
int OpenIdleConnection(const std::string& address) {
  const std::size_t colon = address.rfind(':');
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<uint16_t>(std::stoi(address.substr(colon + 1))));
  inet_pton(AF_INET, address.substr(0, colon).c_str(), &to.sin_addr);
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd >= 0 && connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof(to)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

struct ServedSecurely {
  std::unique_ptr<testing::ChildProcess> process;
  std::string address;  // gRPC, HOST:PORT
  std::string metrics;  // HOST:PORT
};

ServedSecurely ServeSecurely(const std::string& name, const std::vector<std::string>& more) {
  std::vector<std::string> argv = {
      WALKD_BIN,       "--listen",
      "127.0.0.1:0",   "--metrics-listen",
      "127.0.0.1:0",   "--no-store",
      "--data",        testing::FreshTempDir("walkd-security-it", name),
      "--live-worlds", LiveWorlds()};
  argv.insert(argv.end(), more.begin(), more.end());
  ServedSecurely s;
  s.process = std::make_unique<testing::ChildProcess>(argv);
  s.address = s.process->WaitForLine("walkd: grpc listening on ").value_or("");
  const std::string metrics = s.process->WaitForLine("walkd: metrics on ").value_or("");
  const std::size_t scheme = metrics.find("://"), path = metrics.find("/metrics");
  if (scheme != std::string::npos && path != std::string::npos) {
    s.metrics = metrics.substr(scheme + 3, path - scheme - 3);
  }
  EXPECT_FALSE(s.address.empty()) << s.process->output();
  return s;
}

// The files a connection at `address` is made from: a token, or TLS (with a client certificate).
client::ConnectionFiles WithToken(const std::string& token_file) {
  client::ConnectionFiles files;
  files.token_file = token_file;
  return files;
}
client::ConnectionFiles WithTls(const std::string& ca, const std::string& cert = "",
                                const std::string& key = "") {
  client::ConnectionFiles files;
  files.tls_ca = ca;
  files.tls_cert = cert;
  files.tls_key = key;
  return files;
}

client::Connection Connect(const std::string& address, client::ConnectionFiles files) {
  files.address = address;
  absl::StatusOr<client::Connection> connection = client::Connect(files);
  EXPECT_TRUE(connection.ok()) << connection.status();
  return connection.ok() ? *connection : client::Connection(address);
}

grpc::Status UpdateGate(const client::Connection& connection) {
  auto stub = walk::v1::LiveService::NewStub(connection.OpenChannel(4 << 20));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  connection.Authorize(context);
  walk::v1::UpdateBlockersRequest request;
  request.set_world("yard");
  walk::v1::BlockerChange* change = request.add_changes();
  change->set_kind(walk::v1::BlockerChange::KIND_SHUT_GATE);
  change->set_id(20);
  walk::v1::UpdateBlockersResponse response;
  return stub->UpdateBlockers(&context, request, &response);
}

grpc::Status Info(const client::Connection& connection) {
  client::WalkClient client(connection, 30.0);
  walk::v1::InfoResponse info;
  return client.Info(&info);
}

grpc::Status Health(const client::Connection& connection) {
  client::WalkClient client(connection, 30.0);
  grpc::health::v1::HealthCheckResponse::ServingStatus serving;
  return client.Health("", &serving);
}

absl::Status Batch(const client::Connection& connection) {
  walk::v1::WalkRequest walk;
  walk.set_world("default");
  walk.mutable_to()->set_x_yards(1.0);
  return client::StreamWalks(connection, 30.0, {walk}).status;
}

TEST(WalkdSecurityTest, WritesNeedTheTokenAndReadsStayOpen) {
  ServedSecurely s = ServeSecurely("token", {"--auth-token-file", Certs().Path("token")});
  const std::string& address = s.address;
  EXPECT_EQ(UpdateGate(client::Connection(address)).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  const grpc::Status wrong = UpdateGate(Connect(address, WithToken(Certs().Path("wrong-token"))));
  EXPECT_EQ(wrong.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_NE(wrong.error_message().find("authorization"), std::string::npos)
      << wrong.error_message();
  const grpc::Status right = UpdateGate(Connect(address, WithToken(Certs().Path("token"))));
  EXPECT_TRUE(right.ok()) << right.error_message();
  EXPECT_TRUE(Info(client::Connection(address)).ok());
}

TEST(WalkdSecurityTest, WithAuthReadsEveryCallButHealthNeedsIt) {
  ServedSecurely s =
      ServeSecurely("reads", {"--auth-token-file", Certs().Path("token"), "--auth-reads"});
  const client::Connection bare(s.address);
  const client::Connection with_token = Connect(s.address, WithToken(Certs().Path("token")));
  EXPECT_EQ(Info(bare).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Batch(bare).code(), absl::StatusCode::kUnauthenticated);
  EXPECT_TRUE(Health(bare).ok());
  EXPECT_TRUE(Info(with_token).ok());
  const absl::Status streamed = Batch(with_token);
  EXPECT_TRUE(streamed.ok()) << streamed;

  const auto refused = RunCommand({WALKCTL_BIN, "--addr", s.address, "info"});
  EXPECT_EQ(refused.exit_code, 4) << refused.output;
  EXPECT_NE(refused.output.find("UNAUTHENTICATED"), std::string::npos) << refused.output;
  const auto allowed =
      RunCommand({WALKCTL_BIN, "--addr", s.address, "--token-file", Certs().Path("token"), "info"});
  EXPECT_EQ(allowed.exit_code, 0) << allowed.output;
}

TEST(WalkdSecurityTest, TlsOnBothPorts) {
  ServedSecurely s = ServeSecurely(
      "tls", {"--tls-cert", Certs().Path("server.pem"), "--tls-key", Certs().Path("server.key")});
  EXPECT_NE(s.process->output().find("metrics on https://"), std::string::npos)
      << s.process->output();
  EXPECT_EQ(Info(client::Connection(s.address)).error_code(),
            grpc::StatusCode::UNAVAILABLE);  // plain text to a TLS port
  EXPECT_TRUE(Info(Connect(s.address, WithTls(Certs().Path("ca.pem")))).ok());
  // Another CA's trust does not reach walkd's certificate.
  EXPECT_FALSE(Info(Connect(s.address, WithTls(Certs().Path("rogue-ca.pem")))).ok());

  ASSERT_FALSE(s.metrics.empty()) << s.process->output();
  const auto scraped = RunCommand({"/usr/bin/curl", "-sS", "--max-time", "20", "--cacert",
                                   Certs().Path("ca.pem"), "https://" + s.metrics + "/metrics"});
  EXPECT_EQ(scraped.exit_code, 0) << scraped.output;
  EXPECT_NE(scraped.output.find("walk_requests_total"), std::string::npos);
  // Idle connections (no handshake) cannot hold the probes: each has 2 s to speak.
  std::vector<int> idle;
  for (int i = 0; i < 12; ++i) idle.push_back(OpenIdleConnection(s.metrics));
  const auto healthz = RunCommand({"/usr/bin/curl", "-sS", "--max-time", "20", "--cacert",
                                   Certs().Path("ca.pem"), "https://" + s.metrics + "/healthz"});
  EXPECT_EQ(healthz.output, "ok\n");
  for (int fd : idle) close(fd);
  const auto plain = RunCommand({"/usr/bin/curl", "-sS", "--max-time", "20", "-o", "/dev/null",
                                 "http://" + s.metrics + "/metrics"});
  EXPECT_NE(plain.exit_code, 0) << "the metrics port answered plain HTTP";

  const auto walkctl =
      RunCommand({WALKCTL_BIN, "--addr", s.address, "--tls-ca", Certs().Path("ca.pem"), "health"});
  EXPECT_EQ(walkctl.exit_code == 0 || walkctl.exit_code == 5, true) << walkctl.output;
}

TEST(WalkdSecurityTest, MutualTlsRefusesClientsWithoutACertificateItsCaSigned) {
  ServedSecurely s = ServeSecurely(
      "mtls", {"--tls-cert", Certs().Path("server.pem"), "--tls-key", Certs().Path("server.key"),
               "--tls-client-ca", Certs().Path("ca.pem")});
  const std::string ca = Certs().Path("ca.pem");
  EXPECT_FALSE(Info(Connect(s.address, WithTls(ca))).ok());
  EXPECT_FALSE(
      Info(Connect(s.address, WithTls(ca, Certs().Path("rogue.pem"), Certs().Path("rogue.key"))))
          .ok());
  const grpc::Status signed_client =
      Info(Connect(s.address, WithTls(ca, Certs().Path("client.pem"), Certs().Path("client.key"))));
  EXPECT_TRUE(signed_client.ok()) << signed_client.error_message();
  const auto walkctl =
      RunCommand({WALKCTL_BIN, "--addr", s.address, "--tls-ca", ca, "--tls-cert",
                  Certs().Path("client.pem"), "--tls-key", Certs().Path("client.key"), "info"});
  EXPECT_EQ(walkctl.exit_code, 0) << walkctl.output;
}

TEST(WalkdSecurityTest, BadSecurityOptionsStopWalkdNamingTheFlag) {
  const std::string data = testing::FreshTempDir("walkd-security-it", "bad");
  const auto no_cert =
      RunCommand({WALKD_BIN, "--listen", "127.0.0.1:0", "--metrics-listen", "", "--no-store",
                  "--data", data, "--tls-key", Certs().Path("server.key")});
  EXPECT_EQ(no_cert.exit_code, 1);
  EXPECT_NE(no_cert.output.find("--tls-key"), std::string::npos) << no_cert.output;
  const auto short_token =
      RunCommand({WALKD_BIN, "--listen", "127.0.0.1:0", "--metrics-listen", "", "--no-store",
                  "--data", data, "--auth-token-file", Certs().Path("short-token")});
  EXPECT_EQ(short_token.exit_code, 1);
  EXPECT_NE(short_token.output.find("--auth-token-file"), std::string::npos) << short_token.output;
  const auto not_pem = RunCommand({WALKD_BIN, "--listen", "127.0.0.1:0", "--metrics-listen", "",
                                   "--no-store", "--data", data, "--tls-cert",
                                   Certs().Path("token"), "--tls-key", Certs().Path("server.key")});
  EXPECT_EQ(not_pem.exit_code, 1);
  EXPECT_NE(not_pem.output.find("--tls-cert"), std::string::npos) << not_pem.output;
}

// walkd started on loopback with `args` (no store, a fresh data folder): its exit code and output
// once it exits, or -1 (and what it printed) when it listens instead, taking what it should
// refuse; it is then stopped.
testing::CommandResult StartRefused(const std::string& name, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {WALKD_BIN,     "--listen",
                                   "127.0.0.1:0", "--no-store",
                                   "--data",      testing::FreshTempDir("walkd-security-it", name)};
  argv.insert(argv.end(), args.begin(), args.end());
  testing::ChildProcess walkd(argv);
  testing::CommandResult result;
  if (walkd.WaitForLine("walkd: grpc listening on ")) {
    walkd.Signal(SIGKILL);
    result.output = walkd.FinishOutput();
    return result;
  }
  result.output = walkd.FinishOutput();
  result.exit_code = walkd.Wait();
  return result;
}

TEST(WalkdSecurityTest, ACertificateAndKeyThatAreNotAPairStopWalkdNamingBoth) {
  // The server's certificate with the client's key, with the metrics port's HTTPS front too.
  const auto mismatched = StartRefused(
      "mismatch", {"--metrics-listen", "127.0.0.1:0", "--tls-cert", Certs().Path("server.pem"),
                   "--tls-key", Certs().Path("client.key")});
  EXPECT_EQ(mismatched.exit_code, 1) << mismatched.output;
  EXPECT_NE(mismatched.output.find("walkd: --tls-key: " + Certs().Path("client.key")),
            std::string::npos)
      << mismatched.output;
  EXPECT_NE(mismatched.output.find("is not the key of --tls-cert " + Certs().Path("server.pem")),
            std::string::npos)
      << mismatched.output;
  EXPECT_EQ(mismatched.output.find("cannot listen"), std::string::npos) << mismatched.output;
  // A key file that holds no key.
  const auto not_a_key =
      StartRefused("not-a-key", {"--metrics-listen", "", "--tls-cert", Certs().Path("server.pem"),
                                 "--tls-key", Certs().Path("server.pem")});
  EXPECT_EQ(not_a_key.exit_code, 1) << not_a_key.output;
  EXPECT_NE(not_a_key.output.find("--tls-key: " + Certs().Path("server.pem") + " holds no"),
            std::string::npos)
      << not_a_key.output;
}

TEST(WalkdSecurityTest, ATokenFileOthersMayReadIsRefusedByWalkdAndWalkctl) {
  const std::string dir = testing::FreshTempDir("walkd-security-it", "token-modes");
  const std::string open_token = dir + "/token";
  std::ofstream(open_token) << kToken << "\n";
  chmod(open_token.c_str(), 0644);
  const std::string group_token = dir + "/group-token";
  std::ofstream(group_token) << kToken << "\n";
  chmod(group_token.c_str(), 0640);

  const auto world_readable =
      StartRefused("token-0644", {"--metrics-listen", "", "--auth-token-file", open_token});
  EXPECT_EQ(world_readable.exit_code, 1) << world_readable.output;
  EXPECT_NE(
      world_readable.output.find("walkd: --auth-token-file: " + open_token +
                                 " is readable by others (mode 0644); chmod 600 " + open_token),
      std::string::npos)
      << world_readable.output;
  const auto group_readable =
      StartRefused("token-0640", {"--metrics-listen", "", "--auth-token-file", group_token});
  EXPECT_EQ(group_readable.exit_code, 1) << group_readable.output;
  EXPECT_NE(group_readable.output.find("--auth-token-file: " + group_token +
                                       " is readable by its group (mode 0640)"),
            std::string::npos)
      << group_readable.output;

  // walkctl refuses its --token-file alike, before it calls anyone.
  const auto walkctl =
      RunCommand({WALKCTL_BIN, "--addr", "127.0.0.1:1", "--token-file", open_token, "info"});
  EXPECT_EQ(walkctl.exit_code, 2) << walkctl.output;
  EXPECT_NE(walkctl.output.find("--token-file: " + open_token +
                                " is readable by others (mode 0644); chmod 600 " + open_token),
            std::string::npos)
      << walkctl.output;
  client::ConnectionFiles files;
  files.token_file = group_token;
  const absl::StatusOr<client::Connection> connected = client::Connect(files);
  EXPECT_EQ(connected.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(connected.status().message().find("readable by its group (mode 0640)"),
            std::string::npos)
      << connected.status();

  // Its owner's alone, both take it.
  chmod(open_token.c_str(), 0600);
  EXPECT_TRUE(client::Connect(WithToken(open_token)).ok());
  ServedSecurely s = ServeSecurely("token-mode-600", {"--auth-token-file", open_token});
  EXPECT_TRUE(UpdateGate(Connect(s.address, WithToken(open_token))).ok());
}

}  // namespace
}  // namespace walk

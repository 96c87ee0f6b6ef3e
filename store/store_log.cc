#include "store/store_log.h"

#include <cstdarg>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <mutex>

#include "rocksdb/env.h"

namespace walk::store {
namespace {

class StoreLog : public rocksdb::Logger {
 public:
  explicit StoreLog(std::FILE* file)
      : rocksdb::Logger(rocksdb::InfoLogLevel::INFO_LEVEL), file_(file) {}
  ~StoreLog() override { std::fclose(file_); }

  using rocksdb::Logger::Logv;
  void Logv(const char* format, va_list ap) override {
    char line[1024];
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    const std::size_t head = std::strftime(line, sizeof line, "%Y/%m/%d-%H:%M:%S ", &utc);
    std::vsnprintf(line + head, sizeof line - head, format, ap);
    std::lock_guard<std::mutex> lock(mu_);
    // Errors (a full disk) are dropped on purpose: the log must never fail the store.
    std::fputs(line, file_);
    std::fputc('\n', file_);
    std::fflush(file_);
  }

 private:
  std::mutex mu_;
  std::FILE* file_;
};

}  // namespace

std::shared_ptr<rocksdb::Logger> OpenStoreLog(const std::string& dir) {
  const std::filesystem::path log = std::filesystem::path(dir) / "LOG";
  std::error_code ec;
  if (std::filesystem::exists(log, ec)) {
    std::filesystem::rename(log, std::filesystem::path(dir) / "LOG.old", ec);
  }
  std::FILE* file = std::fopen(log.c_str(), "a");
  if (file == nullptr) return nullptr;
  return std::make_shared<StoreLog>(file);
}

}  // namespace walk::store

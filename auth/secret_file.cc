#include "auth/secret_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace walk::auth {

std::string NotSecret(int fd, const std::string& path, const char* user) {
  struct stat st {};
  if (fstat(fd, &st) != 0) return absl::StrCat("cannot stat ", path, ": ", std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return absl::StrCat(path, " is not a regular file");
  const uid_t me = geteuid();
  if (st.st_uid != me && st.st_uid != 0) {
    return absl::StrCat(path, " is owned by uid ", st.st_uid, ", neither ", user, " (uid ", me,
                        ") nor root's; chown it");
  }
  const bool group_may_read = st.st_uid == 0 && me != 0;
  const char* who = (st.st_mode & S_IWOTH)                        ? "writable by others"
                    : (st.st_mode & S_IROTH)                      ? "readable by others"
                    : (st.st_mode & S_IWGRP)                      ? "writable by its group"
                    : ((st.st_mode & S_IRGRP) && !group_may_read) ? "readable by its group"
                                                                  : nullptr;
  if (who == nullptr) return "";
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
  return absl::StrCat(path, " is ", who, " (mode ", mode, "); chmod ",
                      group_may_read ? "640 " : "600 ", path);
}

}  // namespace walk::auth

/* Shared by the libFuzzer harnesses: the file-based parsers read a path, so
 * each input is written to one private temporary file first. */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The path of a file holding exactly data[0..size), or NULL. */
static const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix)
{
    static char path[256];
    static int fd = -1;
    if (fd < 0) {
        const char *dir = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/clbench-fuzz-XXXXXX%s", dir && *dir ? dir : "/tmp",
                 suffix);
        fd = mkstemps(path, (int)strlen(suffix));
        if (fd < 0)
            return NULL;
    }
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
        return NULL;
    return path;
}

/* A NUL-terminated copy of the input (malloc'd). */
__attribute__((unused)) static char *fuzz_str(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        return NULL;
    memcpy(s, data, size);
    s[size] = 0;
    return s;
}
#endif

/* A hostile submission for `gomoku-mist mark`: it opens a saved game
 * with a system call of its own (syscall(SYS_openat, ...)), so that no
 * open or fopen is imported. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void) {
    char saved[256] = "";
    long fd = syscall(SYS_openat, AT_FDCWD, "saved-game.txt", O_RDONLY);
    if (fd >= 0) {
        ssize_t got = read((int)fd, saved, sizeof saved - 1);
        saved[got > 0 ? got : 0] = '\0';
        close((int)fd);
    }
    char line[256];
    while (fgets(line, sizeof line, stdin) != NULL && strcmp(line, "term\n") != 0) {
        puts(saved[0] != '\0' ? saved : "Invalid!");
    }
    return 0;
}

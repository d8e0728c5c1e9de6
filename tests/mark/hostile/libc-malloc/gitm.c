/* A hostile submission for `gomoku-mist mark`: it allocates its board
 * through the C library's internal allocator, __libc_malloc, which glibc
 * exports beside malloc, so that no malloc is imported. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define SIZE 19

extern void *__libc_malloc(size_t size);
extern void __libc_free(void *block);

int main(void) {
    char *board = __libc_malloc(SIZE * SIZE);
    if (board == NULL) {
        return 1;
    }
    memset(board, '.', SIZE * SIZE);
    char line[256];
    while (fgets(line, sizeof line, stdin) != NULL && strcmp(line, "term\n") != 0) {
        puts("Invalid!");
    }
    __libc_free(board);
    return 0;
}

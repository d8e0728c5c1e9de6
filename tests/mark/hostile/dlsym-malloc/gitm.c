/* A hostile submission for `gomoku-mist mark`: it never names malloc but
 * looks it up by name at run time (dlsym), so that the functions it
 * imports show no dynamic memory. The board it allocates so is never
 * freed: free, named, would be seen. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#define SIZE 19

typedef void *(*allocator)(size_t);

int main(void) {
    allocator allocate = (allocator)dlsym(RTLD_DEFAULT, "mal" "loc");
    char *board = allocate == NULL ? NULL : allocate(SIZE * SIZE);
    if (board == NULL) {
        return 1;
    }
    memset(board, '.', SIZE * SIZE);
    char line[256];
    while (fgets(line, sizeof line, stdin) != NULL && strcmp(line, "term\n") != 0) {
        puts("Invalid!");
    }
    return 0;
}

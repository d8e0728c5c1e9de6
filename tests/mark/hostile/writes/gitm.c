/* A hostile submission for `gomoku-mist mark`: writes 4 MiB to a file of
 * its working folder, then says nothing. */
#include <stdio.h>

int main(void) {
    static char block[4096];
    FILE *file = fopen("filled", "w");
    for (int i = 0; file != NULL && i < 1024; i++) {
        fwrite(block, 1, sizeof block, file);
    }
    return 0;
}

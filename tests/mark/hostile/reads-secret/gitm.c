/* A hostile submission for `gomoku-mist mark`: it asks the compiler to
 * include a file only root may read, so that the file's lines would come
 * back in the compiler's errors if the compiler ran as root. */
#include "/etc/shadow"

int main(void) {
    return 0;
}

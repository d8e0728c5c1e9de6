/* Gomoku in the Mist: a plain C implementation of the controller, written
 * from the contract (src/contract.md) the way a careful student would, as
 * the yardstick for `cargo bench --bench compare`. No tricks: read a line,
 * compare it with each command, printf the reply.
 *
 * Careful means correct on any input, not only on the benchmark's:
 * - Lines are read with POSIX getline, not fgets into a fixed buffer: a
 *   line of any length stays one line (fgets would cut a long line into
 *   two commands), and getline reports the real length, so a NUL byte is
 *   an ordinary byte of the line (fgets hides everything after it from
 *   strlen, and `who\0` would pass as `who`).
 * - The line is compared by length and bytes (memcmp), never as a C
 *   string, for the same reason.
 * - Whitespace is exactly space, \t, \r, \v and \f; \r is not stripped.
 *
 * Build: cc -O2 -std=c11 -o baseline baseline.c */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define N 19

static char board[N + 1][N + 1]; /* board[x][y], 1-based; 0 = empty */
static char hist[N * N * 3 + 1]; /* at most 361 moves of 3 bytes */
static int hist_len, moves, hx = 10, hy = 10;
static char turn = 'B';

/* Whether a line of `len` bytes is exactly the command `word`. */
static int is(const char *line, size_t len, const char *word) {
    return len == strlen(word) && memcmp(line, word, len) == 0;
}

static int is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Stones of colour c in a row from (x, y), not counting (x, y) itself. */
static int count(int x, int y, int dx, int dy, char c) {
    int n = 0;
    for (x += dx, y += dy; x >= 1 && x <= N && y >= 1 && y <= N && board[x][y] == c;
         x += dx, y += dy)
        n++;
    return n;
}

/* Whether the stone just put at (x, y) makes five or more in a line. */
static int five(int x, int y, char c) {
    static const int d[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    for (int i = 0; i < 4; i++)
        if (1 + count(x, y, d[i][0], d[i][1], c) + count(x, y, -d[i][0], -d[i][1], c) >= 5)
            return 1;
    return 0;
}

/* The column (1..19) and row (1..19) named by p[0..len), or 0. */
static int parse_point(const char *p, size_t len, int *x, int *y) {
    if (len < 2 || len > 3 || p[0] < 'A' || p[0] > 'S' || p[1] < '1' || p[1] > '9')
        return 0;
    *x = p[0] - 'A' + 1;
    if (len == 2) {
        *y = p[1] - '0';
        return 1;
    }
    if (p[1] != '1' || p[2] < '0' || p[2] > '9') /* 10..19 only */
        return 0;
    *y = 10 + (p[2] - '0');
    return 1;
}

/* Prints the end-of-game block; returns the exit code. */
static int finish(const char *result) {
    printf("%s\n%s\nThank you for playing!\n", result, hist);
    return fflush(stdout) == 0 ? 0 : 1;
}

static void view(void) {
    char out[50];
    int k = 0;
    for (int y = hy + 3; y >= hy - 3; y--)
        for (int x = hx - 3; x <= hx + 3; x++)
            out[k++] = (x < 1 || x > N || y < 1 || y > N) ? 'x'
                       : board[x][y] == 'B'               ? '#'
                       : board[x][y] == 'W'               ? 'o'
                                                          : '.';
    out[k] = 0;
    printf("%c%d,%s\n", 'A' + hx - 1, hy, out);
}

/* Plays `place <p>`; returns -1 to go on, or the exit code. */
static int place(const char *p, size_t len) {
    int x, y;
    if (!parse_point(p, len, &x, &y)) {
        puts("Invalid coordinate");
        return -1;
    }
    if (board[x][y]) {
        puts("Occupied coordinate");
        return -1;
    }
    board[x][y] = turn;
    hist_len += sprintf(hist + hist_len, "%c%d", 'A' + x - 1, y);
    moves++;
    hx = 1 + (5 * x * x + 3 * x + 4) % 19;
    hy = 1 + (4 * y * y + 2 * y - 4) % 19;
    if (five(x, y, turn))
        return finish(turn == 'B' ? "Black wins!" : "White wins!");
    if (moves == N * N)
        return finish("Wow, a tie!");
    turn = turn == 'B' ? 'W' : 'B';
    return -1;
}

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    int code = 1; /* end of input or term: the game did not finish */
    while ((got = getline(&line, &cap, stdin)) != -1) {
        size_t len = (size_t)got;
        if (len > 0 && line[len - 1] == '\n')
            len--;
        if (is(line, len, "who")) {
            printf("%c\n", turn);
        } else if (is(line, len, "view")) {
            view();
        } else if (is(line, len, "history")) {
            printf("%s\n", hist);
        } else if (is(line, len, "resign")) {
            code = finish(turn == 'B' ? "White wins!" : "Black wins!");
            break;
        } else if (is(line, len, "term")) {
            break;
        } else if (len > 6 && memcmp(line, "place ", 6) == 0) {
            int spaced = 0;
            for (size_t i = 6; i < len; i++)
                spaced |= is_space(line[i]);
            if (spaced) {
                puts("Invalid!");
            } else if ((code = place(line + 6, len - 6)) >= 0) {
                break;
            } else {
                code = 1;
            }
        } else {
            puts("Invalid!");
        }
    }
    free(line);
    if (fflush(stdout) != 0 || ferror(stdout))
        return 1;
    return code;
}

/* uci-replay: replays recorded UCI traffic against engine processes with no harness logic, to
 * measure the engines' own time per move (scripts/bench-uci-overhead.sh subtracts it from an
 * arena run's wall time per move).
 *
 * Usage: uci-replay SCRIPT ENGINE [ENGINE…]
 *
 * SCRIPT has one operation a line (scripts/bench-uci-overhead.sh makes it from `arena --log`):
 *   >N TEXT    send TEXT and a newline to engine N (counted from 0)
 *   <N WORD    read engine N's output until a line starting with WORD (uciok, readyok, bestmove)
 * Consecutive sends to one engine go out in one write. Engine N runs ENGINE number N (the last
 * one given for higher numbers). At the end every engine is sent `quit` and waited for.
 * Prints the moves (waits for bestmove) and the wall time from the first engine's start to the
 * last one's exit. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ENGINES 16

struct engine {
    pid_t pid;
    int in;  /* its stdin */
    int out; /* its stdout */
    char *buf;
    size_t len, cap;
    char *pending; /* sends not yet written */
    size_t plen, pcap;
};

static struct engine eng[MAX_ENGINES];
static int started;

static void die(const char *what) {
    perror(what);
    exit(1);
}

static void grow(char **p, size_t *cap, size_t need) {
    if (need <= *cap) return;
    size_t c = *cap ? *cap : 4096;
    while (c < need) c *= 2;
    *p = realloc(*p, c);
    if (!*p) die("realloc");
    *cap = c;
}

static void start(int n, const char *path) {
    int to[2], from[2];
    if (pipe(to) || pipe(from)) die("pipe");
    pid_t pid = fork();
    if (pid < 0) die("fork");
    if (pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[0]); close(to[1]); close(from[0]); close(from[1]);
        execl(path, path, (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    eng[n].pid = pid;
    eng[n].in = to[1];
    eng[n].out = from[0];
}

static void flush(int n) {
    struct engine *e = &eng[n];
    size_t off = 0;
    while (off < e->plen) {
        ssize_t w = write(e->in, e->pending + off, e->plen - off);
        if (w < 0) {
            if (errno == EINTR) continue;
            die("write");
        }
        off += (size_t)w;
    }
    e->plen = 0;
}

static void flush_all(void) {
    for (int i = 0; i < started; i++) flush(i);
}

/* Reads engine n's lines until one starts with word. */
static void wait_for(int n, const char *word) {
    struct engine *e = &eng[n];
    size_t wl = strlen(word);
    for (;;) {
        char *nl = e->len ? memchr(e->buf, '\n', e->len) : NULL;
        if (nl) {
            size_t ll = (size_t)(nl - e->buf) + 1;
            int hit = ll > wl && memcmp(e->buf, word, wl) == 0;
            memmove(e->buf, e->buf + ll, e->len - ll);
            e->len -= ll;
            if (hit) return;
            continue;
        }
        grow(&e->buf, &e->cap, e->len + 65536);
        ssize_t r = read(e->out, e->buf + e->len, e->cap - e->len);
        if (r < 0) {
            if (errno == EINTR) continue;
            die("read");
        }
        if (r == 0) {
            fprintf(stderr, "uci-replay: engine %d closed its output waiting for '%s'\n", n, word);
            exit(1);
        }
        e->len += (size_t)r;
    }
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: uci-replay SCRIPT ENGINE [ENGINE...]\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    FILE *f = fopen(argv[1], "r");
    if (!f) die(argv[1]);
    /* The whole script is read before the clock starts. */
    char *script = NULL;
    size_t slen = 0, scap = 0;
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        grow(&script, &scap, slen + got + 1);
        memcpy(script + slen, chunk, got);
        slen += got;
    }
    fclose(f);
    if (!script) return 0;
    script[slen] = 0;

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long moves = 0;
    int last_send = -1;
    char *p = script;
    while (*p) {
        char *end = strchr(p, '\n');
        if (!end) end = p + strlen(p);
        char op = p[0];
        char *q = p + 1;
        int n = (int)strtol(q, &q, 10);
        if (*q == ' ') q++;
        if ((op != '>' && op != '<') || n < 0 || n >= MAX_ENGINES) {
            fprintf(stderr, "uci-replay: bad script line: %.*s\n", (int)(end - p), p);
            return 2;
        }
        while (started <= n) {
            int k = started + 2 < argc ? started + 2 : argc - 1;
            start(started++, argv[k]);
        }
        size_t tl = (size_t)(end - q);
        if (op == '>') {
            if (last_send != n) flush_all();
            struct engine *e = &eng[n];
            grow(&e->pending, &e->pcap, e->plen + tl + 1);
            memcpy(e->pending + e->plen, q, tl);
            e->plen += tl;
            e->pending[e->plen++] = '\n';
            last_send = n;
        } else {
            char word[64];
            if (tl >= sizeof word) tl = sizeof word - 1;
            memcpy(word, q, tl);
            word[tl] = 0;
            flush_all();
            last_send = -1;
            wait_for(n, word);
            if (strcmp(word, "bestmove") == 0) moves++;
        }
        p = *end ? end + 1 : end;
    }
    flush_all();
    for (int i = 0; i < started; i++) {
        if (write(eng[i].in, "quit\n", 5) < 0) { /* it may be gone already */ }
        close(eng[i].in);
    }
    for (int i = 0; i < started; i++) waitpid(eng[i].pid, NULL, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("uci-replay: %d engines, %ld moves, %.3f s wall, %.2f us a move\n", started, moves, s,
           moves ? s * 1e6 / (double)moves : 0.0);
    return 0;
}

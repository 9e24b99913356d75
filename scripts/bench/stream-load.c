// The load client of scripts/bench/bench-streams.sh: opens many live streams on one server, each from
// its own loopback address (127.0.0.0/8, so that neither the server's per-address caps nor the
// ephemeral ports run out), then makes writes while they are open and times, for each stream, the
// event of each write. Workers of at most 10,000 streams each (a process may be held to 20,000
// descriptors), each one thread on epoll, so that reading 20,000 streams costs the shared cores
// little next to the server; they share their figures with the main process in shared memory.
// Prints JSON.
//
//   stream-load PORT STREAMS TOKEN SERVER_PID WRITES
//
// - rss_before_kb, rss_after_kb: the server's VmRSS before the first stream and once every stream
//   that could open has sent `ready` (and 2 s more).
// - opened: streams that sent `ready`; refused: answers other than 200 (their statuses, and how many
//   carried Retry-After); failed: connections that closed or failed without an answer.
// - writes: each POST's status and time to its answer (from its connect to its status line), in ms.
// - fanout: from each write's connect to each open stream reading its event: p50, p99, max in ms,
//   received and expected (the streams open at each write, added up).
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT 24
#endif

#define STREAMS_PER_WORKER 10000
#define MAX_WORKERS 16

struct worker_figures {
    int opened, failed, refused, retry_after, done_opening;
    int statuses[600];
    size_t delay_count;
};

// Written by the main process (the current write) and by the workers (their figures, their delays).
struct shared {
    int seq;  // the current write, from 1; 0 before the first
    int quit;
    char marker[64];
    double started;  // when the current write's connect began
    int received[64];  // per write
    struct worker_figures workers[MAX_WORKERS];
};

enum state { CONNECTING, WAITING_READY, OPEN, DONE };

struct stream {
    int fd;
    enum state state;
    int seen_seq;  // the last write whose event this stream read
    int tail_len;
    char tail[64];  // the end of the last read: a marker may span two reads
};

static int port, server_pid;
static struct shared *shared;
static double *all_delays;  // per worker, STREAMS_PER_WORKER × writes each

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static long rss_kb(void) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", server_pid);
    FILE *file = fopen(path, "r");
    long kb = -1;
    if (!file) return kb;
    while (fgets(line, sizeof line, file))
        if (strncmp(line, "VmRSS:", 6) == 0) kb = atol(line + 6);
    fclose(file);
    return kb;
}

// A nonblocking socket from 127.x.y.z (one address per index; 127.0.0.1 for -1) connecting to the server.
static int connect_from(int index) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) { perror("socket"); exit(1); }
    int one = 1;
    setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
    struct sockaddr_in source = {.sin_family = AF_INET};
    if (index >= 0) {
        int block = index / 254;
        source.sin_addr.s_addr = htonl((127u << 24) | ((1u + block / 256) << 16) | ((block % 256) << 8) | (index % 254 + 1));
    } else {
        source.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    }
    if (bind(fd, (struct sockaddr *)&source, sizeof source) < 0) { perror("bind"); exit(1); }
    struct sockaddr_in server = {.sin_family = AF_INET, .sin_port = htons(port)};
    server.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&server, sizeof server) < 0 && errno != EINPROGRESS) { perror("connect"); exit(1); }
    return fd;
}

static void send_all(int fd, const char *text) {
    size_t length = strlen(text), sent = 0;
    while (sent < length) {
        ssize_t n = send(fd, text + sent, length - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EAGAIN) continue;  // a request is small: the buffer frees at once
        if (n <= 0) return;
        sent += (size_t)n;
    }
}

// One worker: streams [first, first + count), their figures in shared->workers[number].
static void work(int number, int first, int count, int writes) {
    struct worker_figures *figures = &shared->workers[number];
    double *delays = all_delays + (size_t)number * STREAMS_PER_WORKER * (size_t)writes;
    struct stream *streams = calloc((size_t)count, sizeof *streams);
    int epoll_fd = epoll_create1(EPOLL_CLOEXEC), next = 0, in_flight = 0;
    static char buffer[1 << 16], joined[(1 << 16) + 64];
    static struct epoll_event events[1024];
    double opening_deadline = now_ms() + 600e3;
    while (!__atomic_load_n(&shared->quit, __ATOMIC_ACQUIRE)) {
        // At most 100 streams opening at once per worker: the server's listen backlog is 256.
        while (next < count && in_flight < 100) {
            struct stream *s = &streams[next];
            s->fd = connect_from(first + next);
            s->state = CONNECTING;
            struct epoll_event event = {.events = EPOLLOUT, .data.u64 = (uint64_t)next};
            epoll_ctl(epoll_fd, EPOLL_CTL_ADD, s->fd, &event);
            in_flight++;
            next++;
        }
        if (!figures->done_opening && ((next == count && in_flight == 0) || now_ms() > opening_deadline))
            __atomic_store_n(&figures->done_opening, 1, __ATOMIC_RELEASE);
        int n = epoll_wait(epoll_fd, events, 1024, 20);
        for (int i = 0; i < n; i++) {
            struct stream *s = &streams[events[i].data.u64];
            if (s->state == CONNECTING) {
                if (events[i].events & (EPOLLERR | EPOLLHUP)) { figures->failed++; in_flight--; s->state = DONE; close(s->fd); continue; }
                send_all(s->fd, "GET /v1/StudentLocation/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n");
                s->state = WAITING_READY;
                struct epoll_event event = {.events = EPOLLIN, .data.u64 = events[i].data.u64};
                epoll_ctl(epoll_fd, EPOLL_CTL_MOD, s->fd, &event);
                continue;
            }
            for (;;) {
                ssize_t got = recv(s->fd, buffer, sizeof buffer, 0);
                if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
                if (got <= 0) {
                    if (s->state == WAITING_READY) { figures->failed++; in_flight--; }
                    if (s->state == OPEN) figures->opened--;
                    s->state = DONE;
                    close(s->fd);
                    break;
                }
                memcpy(joined, s->tail, (size_t)s->tail_len);
                memcpy(joined + s->tail_len, buffer, (size_t)got);
                size_t length = (size_t)s->tail_len + (size_t)got;
                if (s->state == WAITING_READY) {
                    if (length >= 12 && strncmp(joined, "HTTP/1.1 ", 9) == 0 && strncmp(joined + 9, "200", 3) != 0) {
                        int status = atoi(joined + 9);
                        figures->refused++;
                        if (status > 0 && status < 600) figures->statuses[status]++;
                        if (memmem(joined, length, "\r\nRetry-After:", 14) || memmem(joined, length, "\r\nretry-after:", 14)) figures->retry_after++;
                        in_flight--;
                        s->state = DONE;
                        close(s->fd);
                        break;
                    }
                    if (memmem(joined, length, "event: ready\n", 13)) { s->state = OPEN; figures->opened++; in_flight--; }
                } else {
                    // The marker is set before its write is sent, so no event of it comes earlier.
                    int seq = __atomic_load_n(&shared->seq, __ATOMIC_ACQUIRE);
                    if (seq > 0 && s->seen_seq != seq && memmem(joined, length, shared->marker, strlen(shared->marker))) {
                        s->seen_seq = seq;
                        delays[figures->delay_count++] = now_ms() - shared->started;
                        __atomic_fetch_add(&shared->received[seq], 1, __ATOMIC_RELEASE);
                    }
                }
                s->tail_len = length < sizeof s->tail ? (int)length : (int)sizeof s->tail;
                memcpy(s->tail, joined + length - (size_t)s->tail_len, (size_t)s->tail_len);
            }
        }
    }
    _exit(0);
}

static int opened_now(int workers) {
    int opened = 0;
    for (int w = 0; w < workers; w++) opened += __atomic_load_n(&shared->workers[w].opened, __ATOMIC_ACQUIRE);
    return opened;
}

// One POST of `marker` as the student of `token`; its status, and its answer's time in *answer_ms.
static int post(const char *token, const char *marker, double *answer_ms, int workers, int *expected) {
    char body[256], request[1024], answer[4096];
    snprintf(body, sizeof body, "{\"mapString\":\"%s\",\"mediaURL\":\"https://example.com\",\"latitude\":1,\"longitude\":2}", marker);
    snprintf(request, sizeof request,
             "POST /v1/StudentLocation HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"
             "Content-Type: application/json\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n%s",
             token, strlen(body), body);
    *expected = opened_now(workers);
    double started = now_ms();
    shared->started = started;
    int fd = connect_from(-1);
    // Loopback connects at once; blocking from here, the send waits for the connection.
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    struct timeval timeout = {.tv_sec = 30};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    send_all(fd, request);
    ssize_t got = recv(fd, answer, sizeof answer - 1, 0);
    *answer_ms = got > 0 ? now_ms() - started : -1;
    close(fd);
    if (got <= 0) return -1;
    answer[got] = 0;
    return strncmp(answer, "HTTP/1.1 ", 9) == 0 ? atoi(answer + 9) : -1;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 6) { fprintf(stderr, "usage: stream-load PORT STREAMS TOKEN SERVER_PID WRITES\n"); return 2; }
    port = atoi(argv[1]);
    int stream_count = atoi(argv[2]), writes = atoi(argv[5]);
    const char *token = argv[3];
    server_pid = atoi(argv[4]);
    int workers = (stream_count + STREAMS_PER_WORKER - 1) / STREAMS_PER_WORKER;
    if (workers > MAX_WORKERS || writes >= 64) { fprintf(stderr, "too many streams or writes\n"); return 2; }
    size_t delay_bytes = (size_t)MAX_WORKERS * STREAMS_PER_WORKER * (size_t)(writes > 0 ? writes : 1) * sizeof(double);
    shared = mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    all_delays = mmap(NULL, delay_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED || all_delays == MAP_FAILED) { perror("mmap"); return 1; }
    long rss_before = rss_kb();
    pid_t children[MAX_WORKERS];
    for (int w = 0; w < workers; w++) {
        int first = (int)((long)stream_count * w / workers), end = (int)((long)stream_count * (w + 1) / workers);
        children[w] = fork();
        if (children[w] == 0) work(w, first, end - first, writes);
    }
    for (int w = 0; w < workers; w++)
        while (!__atomic_load_n(&shared->workers[w].done_opening, __ATOMIC_ACQUIRE)) usleep(50000);
    usleep(2000000);
    long rss_after = rss_kb();

    int opened = 0, failed = 0, refused = 0, retry_after = 0, statuses[600] = {0};
    for (int w = 0; w < workers; w++) {
        struct worker_figures *f = &shared->workers[w];
        opened += f->opened, failed += f->failed, refused += f->refused, retry_after += f->retry_after;
        for (int status = 0; status < 600; status++) statuses[status] += f->statuses[status];
    }
    printf("{\"streams\":%d,\"opened\":%d,\"failed\":%d,\"refused\":%d,\"refused_retry_after\":%d,\"refused_statuses\":{",
           stream_count, opened, failed, refused, retry_after);
    for (int status = 0, first = 1; status < 600; status++)
        if (statuses[status]) { printf("%s\"%d\":%d", first ? "" : ",", status, statuses[status]); first = 0; }
    printf("},\"rss_before_kb\":%ld,\"rss_after_kb\":%ld,\"writes\":[", rss_before, rss_after);

    int expected_total = 0;
    for (int w = 1; w <= writes; w++) {
        snprintf(shared->marker, sizeof shared->marker, "streams-bench-%d-%d", w, getpid());
        __atomic_store_n(&shared->seq, w, __ATOMIC_RELEASE);
        double answer_ms;
        int expected;
        int status = post(token, shared->marker, &answer_ms, workers, &expected);
        expected_total += expected;
        for (double end = shared->started + 10e3; now_ms() < end;) {
            if (__atomic_load_n(&shared->received[w], __ATOMIC_ACQUIRE) >= expected) break;
            usleep(10000);
        }
        printf("%s{\"status\":%d,\"answer_ms\":%.1f,\"received\":%d}", w > 1 ? "," : "", status, answer_ms,
               __atomic_load_n(&shared->received[w], __ATOMIC_ACQUIRE));
        fflush(stdout);
        usleep(1000000);
    }
    __atomic_store_n(&shared->quit, 1, __ATOMIC_RELEASE);
    for (int w = 0; w < workers; w++) waitpid(children[w], NULL, 0);

    size_t count = 0;
    double *delays = malloc(delay_bytes);
    for (int w = 0; w < workers; w++) {
        memcpy(delays + count, all_delays + (size_t)w * STREAMS_PER_WORKER * (size_t)writes, shared->workers[w].delay_count * sizeof(double));
        count += shared->workers[w].delay_count;
    }
    qsort(delays, count, sizeof *delays, compare);
#define AT(p) (count ? delays[(size_t)((p) * (double)(count - 1))] : -1.0)
    printf("],\"fanout\":{\"p50_ms\":%.1f,\"p99_ms\":%.1f,\"max_ms\":%.1f,\"received\":%zu,\"expected\":%d}}\n",
           AT(0.5), AT(0.99), count ? delays[count - 1] : -1.0, count, expected_total);
    return 0;
}

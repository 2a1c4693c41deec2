// SPDX-License-Identifier: GPL-2.0-only
/*
 * fail-nth: run one operation with the Nth fault-injection point of a
 * task failed, as syzkaller does (Documentation/fault-injection/
 * fault-injection.rst, "/proc/<pid>/fail-nth"), and say whether that
 * point was reached.
 *
 *   fail-nth [-t TID [-w WCHAN]] N write PATH TEXT
 *   fail-nth [-t TID [-w WCHAN]] N insmod MODULE.ko [PARAMS]
 *
 * Everything the operation needs is prepared before the point is armed
 * (the file opened, the module image read), so the count covers only the
 * write() or init_module() call itself.  By default the calling thread is
 * armed; -t arms another one, e.g. a CPU's hotplug thread (cpuhp/N),
 * which runs the CPU's online and offline callbacks.
 *
 * -w: the operation hands work to TID and returns before it is done (a
 * write that queues a kthread worker's work): the count is read once
 * TID sleeps in WCHAN again (/proc/TID/wchan; "kthread_worker_fn" for an
 * idle kthread worker, which has run what was queued before it slept).
 * The kernel gives a wchan only for a task off its runqueue
 * (get_wchan()), so a worker woken for the work and not yet run is not
 * taken for idle.  Gives up after WAIT_S seconds.
 *
 * Prints one line:  n=N injected=0|1 points=P rc=0|ERRNO-NAME
 * injected=1 when the Nth point was reached (and failed); otherwise P is
 * the number of points the operation passed.  Exit status 0 when the
 * line was printed (whatever the operation returned), 2 on bad usage,
 * when the injection could not be set up, or when -w's thread did not
 * get back to WCHAN (then disarmed).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* How long -w waits for the thread to be idle again */
#define WAIT_S	120

static void bad_usage(void)
{
	fprintf(stderr,
		"usage: fail-nth [-t TID [-w WCHAN]] N write PATH TEXT\n"
		"       fail-nth [-t TID [-w WCHAN]] N insmod MODULE.ko [PARAMS]\n");
	exit(2);
}

static void die(const char *what)
{
	fprintf(stderr, "fail-nth: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* pwrite()/pread() at 0: the proc file keeps no state of its own */
static void arm(int fd, unsigned long n)
{
	char buf[24];
	int len = snprintf(buf, sizeof(buf), "%lu", n);

	if (pwrite(fd, buf, len, 0) != len)
		die("writing fail-nth");
}

static unsigned long remaining(int fd)
{
	char buf[24];
	ssize_t len = pread(fd, buf, sizeof(buf) - 1, 0);

	if (len <= 0)
		die("reading fail-nth");
	buf[len] = '\0';
	return strtoul(buf, NULL, 10);
}

/* Whether /proc/TID/wchan reads @wchan; a vanished task is an error */
static int sleeps_in(const char *tid, const char *wchan)
{
	char path[64], buf[128];
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/wchan", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die(path);
	len = read(fd, buf, sizeof(buf) - 1);
	if (len < 0)
		die(path);
	close(fd);
	buf[len] = '\0';
	return !strcmp(buf, wchan);
}

/* -w: poll every 10 ms until TID sleeps in @wchan; 0 after WAIT_S */
static int wait_idle(const char *tid, const char *wchan)
{
	struct timespec tick = { .tv_nsec = 10 * 1000 * 1000 };
	long polls;

	for (polls = 0; polls < WAIT_S * 100L; polls++) {
		if (sleeps_in(tid, wchan))
			return 1;
		nanosleep(&tick, NULL);
	}
	return 0;
}

static void *read_image(const char *path, size_t *size)
{
	struct stat st;
	void *image;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		die(path);
	image = malloc(st.st_size);
	if (!image || read(fd, image, st.st_size) != st.st_size)
		die(path);
	close(fd);
	*size = st.st_size;
	return image;
}

int main(int argc, char **argv)
{
	const char *tid = "thread-self", *wchan = NULL, *op;
	char path[64], *end;
	unsigned long n, left;
	void *image = NULL;
	size_t size = 0;
	int ctl, fd = -1, err = 0;
	long ret;

	if (argc > 2 && !strcmp(argv[1], "-t")) {
		tid = argv[2];
		argv += 2;
		argc -= 2;
		if (argc > 2 && !strcmp(argv[1], "-w")) {
			wchan = argv[2];
			argv += 2;
			argc -= 2;
		}
	}
	if (argc < 4)
		bad_usage();
	n = strtoul(argv[1], &end, 10);
	if (*end || !n)
		bad_usage();
	op = argv[2];

	snprintf(path, sizeof(path), "/proc/%s/fail-nth", tid);
	ctl = open(path, O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		die(path);

	if (!strcmp(op, "write") && argc == 5) {
		fd = open(argv[3], O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			die(argv[3]);
	} else if (!strcmp(op, "insmod") && (argc == 4 || argc == 5)) {
		image = read_image(argv[3], &size);
	} else {
		bad_usage();
	}

	arm(ctl, n);
	if (fd >= 0)
		ret = write(fd, argv[4], strlen(argv[4]));
	else
		ret = syscall(SYS_init_module, image, size,
			      argc == 5 ? argv[4] : "");
	if (ret < 0)
		err = errno;
	if (wchan && !wait_idle(tid, wchan)) {
		arm(ctl, 0);
		fprintf(stderr, "fail-nth: task %s not back in %s after %d s\n",
			tid, wchan, WAIT_S);
		return 2;
	}
	left = remaining(ctl);
	/* Never leave a count armed: it would fail a later, random call */
	arm(ctl, 0);

	printf("n=%lu injected=%d points=%lu rc=%s\n", n, !left,
	       left ? n - left : 0, err ? strerrorname_np(err) : "0");
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * The pool of child processes that compare and sweep run their
 * simulations in (runs.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/runs.h"

/* Writes the n bytes at p whole to fd: 0, or -1. */
static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t k = write(fd, c, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

/* In the child: runs, writes the figures to run->fd whole, and exits. */
static void run_child(const struct ibfs_cli_pool *p, struct ibfs_cli_run *run)
{
	struct ibfs_cmp_figs f = {0};
	struct ibfs_diag d = {{0}};
	struct ibfs_scenario *sc = p->load(p->arg, run, &d);
	struct ibfs_run_opts o = p->o;

	o.seed = run->seed;
	f.status = -1;
	if (sc) {
		struct ibfs_results r = {0};
		int rc = ibfs__scenario_run(sc, &o, &r, &d);
		if (rc >= 0) {
			ibfs__cmp_figures(&r, &f);
			f.status = rc;
			if (p->after && p->after(p->arg, run, &r, &d) < 0)
				f.status = -1;
		}
		ibfs__results_free(&r);
		ibfs__scenario_free(sc);
	}
	f.seed = run->seed;
	if (f.status < 0)
		snprintf(f.error, sizeof(f.error), "%s", d.msg);
	_exit(write_all(run->fd, &f, sizeof(f)) < 0 ? 3 : 0);
}

static int run_start(const struct ibfs_cli_pool *p, struct ibfs_cli_run *run)
{
	int fds[2];
	if (pipe(fds) < 0)
		return -1;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		run->fd = fds[1];
		run_child(p, run);
	}
	close(fds[1]);
	run->pid = pid;
	run->fd = fds[0];
	return 0;
}

/* Reads run's figures and reaps it; a run that died says how. */
static void run_finish(const struct ibfs_cli_pool *p, struct ibfs_cli_run *run)
{
	char *c = (char *)&run->f;
	size_t got = 0;
	while (got < sizeof(run->f)) {
		ssize_t k = read(run->fd, c + got, sizeof(run->f) - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	close(run->fd);
	int st = 0;
	while (waitpid(run->pid, &st, 0) < 0 && errno == EINTR)
		;
	if (got != sizeof(run->f)) {
		memset(&run->f, 0, sizeof(run->f));
		run->f.status = -1;
		run->f.seed = run->seed;
		if (WIFSIGNALED(st))
			snprintf(run->f.error, sizeof(run->f.error),
				 "the run was killed by signal %d",
				 WTERMSIG(st));
		else
			snprintf(run->f.error, sizeof(run->f.error),
				 "the run ended (status %d) without its "
				 "figures", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	}
	if (p->done)
		p->done(p->arg, run);
}

int ibfs_cli_runs(const struct ibfs_cli_pool *p, struct ibfs_cli_run *runs,
		  size_t n)
{
	size_t next = 0, done = 0;
	while (done < n) {
		while (next < n && next - done < p->jobs) {
			if (run_start(p, &runs[next]) < 0) {
				ibfs_cli_error("cannot start a run: %s",
					       strerror(errno));
				while (done < next)
					run_finish(p, &runs[done++]);
				return -1;
			}
			next++;
		}
		run_finish(p, &runs[done++]);
	}
	return 0;
}

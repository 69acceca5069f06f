// SPDX-License-Identifier: MIT
/*
 * Test and bench helper: runs a command and prints its peak resident set
 * size in KiB on stderr, as "maxrss_kib N". The child is started with
 * vfork, so the parent's memory is never counted as the child's.
 *   usage: maxrss COMMAND [ARG]...
 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: maxrss COMMAND [ARG]...\n");
		return 2;
	}
	pid = vfork();
	if (pid < 0) {
		perror("vfork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("wait4");
		return 2;
	}
	fprintf(stderr, "maxrss_kib %ld\n", ru.ru_maxrss);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* SPDX-License-Identifier: MIT */
/*
 * ibfsim sweep under Open MPI's mpirun (sweep_mpi.h).
 *
 * mpirun sets OMPI_COMM_WORLD_SIZE in each process it starts; then the
 * sweep loads Open MPI's libmpi at run time rather than linking it:
 * libsimgrid defines MPI's function names too (SimGrid's own MPI), and a
 * library opened with RTLD_DEEPBIND binds its own. ibfsim thus needs no
 * MPI to build or to run alone. Open MPI's handles are the addresses of
 * its objects (ompi_mpi_comm_world, ompi_mpi_int, ompi_mpi_char), which
 * is what its mpi.h's MPI_COMM_WORLD, MPI_INT and MPI_CHAR expand to.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/sweep_mpi.h"

/* Open MPI 4's library, by its soname; the unversioned name as well. */
static const char *const mpi_libs[] = {"libmpi.so.40", "libmpi.so"};

static int mpi_sym(struct ibfs_cli_mpi *m, const char *name, void **out)
{
	*out = dlsym(m->lib, name);
	if (*out)
		return 0;
	ibfs_cli_error("sweep under mpirun: Open MPI's libmpi has no %s",
		       name);
	return -1;
}

int ibfs_cli_mpi_open(struct ibfs_cli_mpi *m)
{
	*m = (struct ibfs_cli_mpi){.rank = 0, .size = 1};
	const char *n = getenv("OMPI_COMM_WORLD_SIZE");
	if (!n || atoi(n) < 2)
		return 0;
	for (size_t i = 0; i < 2 && !m->lib; i++)
		m->lib = dlopen(mpi_libs[i],
				RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
	if (!m->lib) {
		ibfs_cli_error("sweep under mpirun: cannot load Open MPI's "
			       "libmpi (Debian package openmpi-bin): %s",
			       dlerror());
		return -1;
	}
	void *init, *rank, *size;
	if (mpi_sym(m, "MPI_Init", &init) || mpi_sym(m, "MPI_Comm_rank",
						     &rank) ||
	    mpi_sym(m, "MPI_Comm_size", &size) ||
	    mpi_sym(m, "MPI_Gather", (void **)&m->gather) ||
	    mpi_sym(m, "MPI_Gatherv", (void **)&m->gatherv) ||
	    mpi_sym(m, "MPI_Barrier", (void **)&m->barrier) ||
	    mpi_sym(m, "MPI_Finalize", (void **)&m->finalize) ||
	    mpi_sym(m, "ompi_mpi_comm_world", &m->world) ||
	    mpi_sym(m, "ompi_mpi_int", &m->mpi_int) ||
	    mpi_sym(m, "ompi_mpi_char", &m->mpi_char)) {
		dlclose(m->lib);
		m->lib = NULL;
		return -1;
	}
	/* The pool forks runs that never call MPI: no warning for that. */
	setenv("OMPI_MCA_mpi_warn_on_fork", "0", 0);
	((int (*)(int *, char ***))init)(NULL, NULL);
	((int (*)(void *, int *))rank)(m->world, &m->rank);
	((int (*)(void *, int *))size)(m->world, &m->size);
	return 0;
}

char *ibfs_cli_mpi_gather(struct ibfs_cli_mpi *m, const char *mine,
			  size_t n, size_t *len)
{
	*len = 0;
	if (!m->lib) {
		char *c = malloc(n + 1);
		if (c) {
			memcpy(c, mine, n);
			c[n] = 0;
			*len = n;
		}
		return c;
	}
	int me = n > INT_MAX ? INT_MAX : (int)n;
	int *counts = calloc((size_t)m->size, sizeof(int));
	int *displs = calloc((size_t)m->size, sizeof(int));
	m->gather(&me, 1, m->mpi_int, counts, 1, m->mpi_int, 0, m->world);
	size_t total = 0;
	for (int r = 0; m->rank == 0 && counts && displs && r < m->size;
	     r++) {
		displs[r] = (int)total;
		total += (size_t)counts[r];
	}
	char *all = m->rank == 0 ? malloc(total + 1) : NULL;
	m->gatherv(mine, me, m->mpi_char, all, counts, displs, m->mpi_char,
		   0, m->world);
	free(counts);
	free(displs);
	if (all) {
		all[total] = 0;
		*len = total;
	}
	return all;
}

void ibfs_cli_mpi_barrier(struct ibfs_cli_mpi *m)
{
	if (m->lib)
		m->barrier(m->world);
}

void ibfs_cli_mpi_close(struct ibfs_cli_mpi *m)
{
	if (m->lib)
		m->finalize();
	/* libmpi stays loaded: its atexit handlers may still run. */
	m->lib = NULL;
}

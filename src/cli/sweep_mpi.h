/* SPDX-License-Identifier: MIT */
/*
 * A sweep across machines under Open MPI's mpirun (sweep_mpi.c): each
 * rank runs its share of the points and rank 0 gathers their rows.
 */
#ifndef IBFS_CLI_SWEEP_MPI_H
#define IBFS_CLI_SWEEP_MPI_H

#include <stddef.h>

struct ibfs_cli_mpi {
	void *lib;              /* libmpi, NULL when not under mpirun */
	int rank, size;         /* 0 and 1 when not */
	int (*gather)(const void *, int, void *, void *, int, void *, int,
		      void *);
	int (*gatherv)(const void *, int, void *, void *, const int *,
		       const int *, void *, int, void *);
	int (*barrier)(void *);
	int (*finalize)(void);
	void *world, *mpi_int, *mpi_char;
};

/*
 * Joins the MPI job when mpirun started this process (its environment
 * says so), else leaves m a job of one: 0, or -1 after a message.
 */
int ibfs_cli_mpi_open(struct ibfs_cli_mpi *m);
/*
 * Every rank's text, concatenated in rank order, to rank 0 (malloc'd,
 * *len its length; NULL on the other ranks or when out of memory).
 */
char *ibfs_cli_mpi_gather(struct ibfs_cli_mpi *m, const char *mine,
			  size_t n, size_t *len);
/* Waits until every rank has come here (none when alone). */
void ibfs_cli_mpi_barrier(struct ibfs_cli_mpi *m);
void ibfs_cli_mpi_close(struct ibfs_cli_mpi *m);

#endif

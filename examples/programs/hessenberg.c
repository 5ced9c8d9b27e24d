/* Stage-GA, Figure 7: one iteration of the Hessenberg reduction
 *   A = (I - V Z V^T)^T A (I - V Z V^T),  A, Z, V are N x N matrices,
 * in five levels. Levels 1, 2, 4 and 5 are matrix products (N^3), level 3 a
 * subtraction (N^2). The paper's instances: H1 with N = 1024 (this file) and
 * H2 with N = 10240 (override the define: -D N=10240).
 */
#define N 1024

for (i=0; i<N; ++i)  /* Level 1 */
  for (j=0; j<N; ++j) {
    a[i][j]=0;
    for (k=0; k<N; ++k)
      a[i][j]=a[i][j]+V[i][k]*Z[k][j];
    /* VZ */
  }
for (i=0; i<N; ++i)  /* Level 2 */
  for (j=0; j<N; ++j) {
    b[i][j]=0;
    for (k=0; k<N; ++k)
      b[i][j]=b[i][j]+a[i][k]*V[j][k];
    /* VZV^T */
  }
for (i=0; i<N; ++i)  /* Level 3 */
  for (j=0; j<N; ++j)
    c[i][j]=I[i][j]-b[i][j];
    /* I- VZV^T */
for (i=0; i<N; ++i)  /* Level 4 */
  for (j=0; j<N; ++j) {
    d[i][j]=0;
    for (k=0; k<N; ++k)
      d[i][j]=d[i][j]+c[k][i]*A[k][j];
    /* (I- VZV^T)^T A */
  }
for (i=0; i<N; ++i)  /* Level 5 */
  for (j=0; j<N; ++j) {
    e[i][j]=0;
    for (k=0; k<N; ++k)
      e[i][j]=e[i][j]+d[i][k]*c[k][j];
    /* (I- VZV^T)^T A (I- VZV^T) */
  }

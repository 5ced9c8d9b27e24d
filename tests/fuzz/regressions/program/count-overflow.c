#define N 3037000500
for (i=0; i<N; ++i)
 for (j=0; j<N; ++j)
 for (k=0; k<N; ++k)
  a[i][j]=b[i][k]+c[k][j];

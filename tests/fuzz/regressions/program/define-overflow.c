#define N 9223372036854775807
for (i=0; i<N*N; ++i)
  a[i]=1;

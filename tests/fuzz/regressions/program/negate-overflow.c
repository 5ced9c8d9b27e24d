#define N -9223372036854775807
#define M (N-1)
for (i=0; i<-M; ++i)
  a[i]=1;

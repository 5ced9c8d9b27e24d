/* 'a' is a matrix in level 1 and a vector in level 2: an array keeps one rank. */
#define N 8
for (i = 0; i < N; ++i)
  for (j = 0; j < N; ++j)
    a[i][j] = 0;
for (i = 0; i < N; ++i)
  b[i] = a[i] + 1;

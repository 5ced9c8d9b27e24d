/* A loop whose condition is missing its bound: a syntax error at 3:17. */
#define N 8
for (i = 0; i < ; ++i)
  a[i] = 1;

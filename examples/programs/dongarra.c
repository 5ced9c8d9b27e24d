/* Stage-GA, Table III: eleven loops from J. Dongarra's test loops for
 * parallelizing compilers (netlib.org/benchmark/parallel), instance D1 with
 * n1 = n2 = 10240.
 *
 * The paper prints no code for these loops, only each loop's arrays and
 * operations (Table III). Each loop below is written from that row: exactly
 * the arrays it lists (X2 ... F2 are n1 x n2 matrices, A1, B1, D1 vectors of
 * size n2, S a scalar) and the operations it names. They are reconstructions
 * from Table III, not the netlib text.
 */
#define n1 10240
#define n2 10240

/* Level 1 - X2, Y2, Z2: matrix multiplication (grows with n1^3) */
for (i = 0; i < n1; i++)
  for (j = 0; j < n2; j++)
    for (k = 0; k < n2; k++)
      X2[i][j] += Y2[i][k] * Z2[k][j];

/* Level 2 - X2, Y2, Z2: assignment, 2D-array multiplication */
for (i = 0; i < n1; i++)
  for (j = 0; j < n2; j++) {
    Z2[i][j] = X2[i][j];
    Y2[i][j] = X2[i][j] * Z2[i][j];
  }

/* Level 3 - A2, B2, C2: 2D-array addition */
for (i = 0; i < n1; i++)
  for (j = 0; j < n2; j++)
    A2[i][j] = B2[i][j] + C2[i][j];

/* Level 4 - A2, B2, C2, S: 2D-array addition, scalar multiplication */
for (i = 0; i < n1; i++)
  for (j = 0; j < n2; j++)
    A2[i][j] = B2[i][j] + S * C2[i][j];

/* Level 5 - A2, B2, C2, D1: 1D and 2D-array multiplication and addition */
for (i = 0; i < n1; i++)
  for (j = 0; j < n2; j++)
    A2[i][j] = B2[i][j] + C2[i][j] * D1[j];

/* Level 6 - A2, B2, C2, D2: 2D-array addition */
for (i = 0; i < n1; i++)
  for (j = 0; j < n2; j++)
    A2[i][j] = B2[i][j] + C2[i][j] + D2[i][j];

/* Level 7 - A2, B2, C2, D2, A1: 1D and 2D-array multiplication and addition */
for (i = 0; i < n1; i++)
  for (j = 0; j < n2; j++)
    A2[i][j] = B2[i][j] * A1[j] + C2[i][j] * D2[i][j];

/* Level 8 - A2, B2, C2, D2, E2, F2, A1, B1: 1D and 2D-array multiplication
 * and addition */
for (i = 0; i < n1; i++)
  for (j = 0; j < n2; j++) {
    A2[i][j] = B2[i][j] + C2[i][j] * A1[j];
    D2[i][j] = E2[i][j] + F2[i][j] * B1[j];
  }

/* Level 9 - A2, B2, C2, D2, E2, F2: 2D-array addition and subtraction */
for (i = 0; i < n1; i++)
  for (j = 0; j < n2; j++) {
    A2[i][j] = B2[i][j] + C2[i][j];
    D2[i][j] = E2[i][j] - F2[i][j];
  }

/* Level 10 - A2, B2, D2, A1: 1D and 2D-array multiplication and addition */
for (i = 0; i < n1; i++)
  for (j = 0; j < n2; j++)
    A2[i][j] = B2[i][j] * A1[j] + D2[i][j];

/* Level 11 - A2, B2, D2, A1: 1D and 2D-array multiplication and addition
 * (a vector-matrix product: column sums into A1) */
for (j = 0; j < n2; j++)
  for (i = 0; i < n1; i++)
    A1[j] += A2[i][j] * B2[i][j] + D2[i][j];

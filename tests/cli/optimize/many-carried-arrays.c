/* An iterative loop carrying sixteen arrays: 7^8 guesses of their layouts,
 * more than the exact solver takes, so optimize answers with the GA. */
#define N 64
for (t=0; t<10; ++t) {
  for (i=0; i<N; ++i)
    for (j=0; j<N; ++j) {
      a0[i][j]=a1[j][i]+a2[i][j];
      a2[i][j]=a3[j][i]+a4[i][j];
      a4[i][j]=a5[j][i]+a6[i][j];
      a6[i][j]=a7[j][i]+a8[i][j];
      a8[i][j]=a9[j][i]+a10[i][j];
      a10[i][j]=a11[j][i]+a12[i][j];
      a12[i][j]=a13[j][i]+a14[i][j];
      a14[i][j]=a15[j][i]+a0[i][j];
    }
  for (i=0; i<N; ++i)
    for (j=0; j<N; ++j) {
      a0[i][j]=a1[j][i]+a2[i][j];
      a2[i][j]=a3[j][i]+a4[i][j];
      a4[i][j]=a5[j][i]+a6[i][j];
      a6[i][j]=a7[j][i]+a8[i][j];
      a8[i][j]=a9[j][i]+a10[i][j];
      a10[i][j]=a11[j][i]+a12[i][j];
      a12[i][j]=a13[j][i]+a14[i][j];
      a14[i][j]=a15[j][i]+a0[i][j];
    }
}

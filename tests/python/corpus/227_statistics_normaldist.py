from statistics import NormalDist, mean, stdev

heights = [170.2, 165.5, 180.1, 175.0, 168.3, 172.8, 177.4, 169.9]
m, s = mean(heights), stdev(heights)
print(f"mean={m:.2f} stdev={s:.2f}")
nd = NormalDist(m, s)
print(f"P(h<165)={nd.cdf(165):.4f} P(h>180)={1 - nd.cdf(180):.4f}")
print(f"90th percentile={nd.inv_cdf(0.9):.2f}")
z = NormalDist()
print(round(z.cdf(1.96), 4), round(z.inv_cdf(0.975), 4), round(z.pdf(0), 6))
print(NormalDist(10, 2) + NormalDist(5, 1))

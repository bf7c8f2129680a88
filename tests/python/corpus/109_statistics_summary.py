import statistics as st

data = [2, 4, 4, 4, 5, 5, 7, 9]
print(st.mean(data), st.median(data), st.mode(data))
print(st.pstdev(data), round(st.stdev(data), 6), st.pvariance(data))
print(st.median_low([1, 3, 5, 7]), st.median_high([1, 3, 5, 7]), st.median([1, 3, 5, 7]))
print(st.multimode("aabbbcccd"), st.fmean([1.5, 2.5, 3.5]))
print(st.quantiles(range(1, 101), n=4))
print(st.harmonic_mean([40, 60]), st.geometric_mean([1, 10, 100]))
try:
    st.mean([])
except st.StatisticsError as e:
    print("StatisticsError:", e)

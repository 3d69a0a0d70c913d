#pragma once

#include <cstdint>

namespace ks::core {

// Mixes values into one 64-bit seed (splitmix64 finaliser). Used to give every
// (rank, step, phase) its own independent random stream, so a phase can be
// re-simulated on its own and still draw exactly the same numbers.
inline std::uint64_t mixSeed(std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0, std::uint64_t d = 0)
{
    auto mix = [](std::uint64_t z) {
        z += 0x9e3779b97f4a7c15ULL;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    };
    return mix(mix(mix(mix(a) ^ b) ^ c) ^ d);
}

// xoshiro256**: fast, and unlike <random> distributions its output is the same
// on every standard library, which keeps `--seed` reproducible everywhere.
class SynthRng
{
public:
    explicit SynthRng(std::uint64_t seed)
    {
        for (auto& word : m_state) {
            seed = mixSeed(seed);
            word = seed;
        }
    }

    std::uint64_t next()
    {
        const std::uint64_t result = rotl(m_state[1] * 5, 7) * 9;
        const std::uint64_t t = m_state[1] << 17;
        m_state[2] ^= m_state[0];
        m_state[3] ^= m_state[1];
        m_state[1] ^= m_state[2];
        m_state[0] ^= m_state[3];
        m_state[2] ^= t;
        m_state[3] = rotl(m_state[3], 45);
        return result;
    }

    // Uniform in [0, 1).
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

    // Uniform integer in [lo, hi] (hi >= lo).
    std::int64_t between(std::int64_t lo, std::int64_t hi)
    {
        const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
        return lo + static_cast<std::int64_t>(next() % span);
    }

    bool chance(double p) { return uniform() < p; }

    // A duration around `meanNs`: triangular noise of +-spread, plus a rare long
    // tail (a descheduled thread, a slow launch) as real profiles show.
    std::int64_t around(std::int64_t meanNs, double spread = 0.15)
    {
        const double noise = (uniform() + uniform() - 1.0) * spread;
        double value = static_cast<double>(meanNs) * (1.0 + noise);
        if (chance(0.004))
            value *= 2.0 + 6.0 * uniform();
        return value < 1.0 ? 1 : static_cast<std::int64_t>(value);
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

    std::uint64_t m_state[4] {};
};

} // namespace ks::core

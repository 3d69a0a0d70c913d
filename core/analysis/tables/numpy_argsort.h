#pragma once

// numpy's argsort(kind="quicksort"), which pandas' sort_values uses: HTA's
// output order among equal keys depends on it (hta-semantics.md §7-8, Q9), and
// it is not stable, so only this exact algorithm reproduces HTA row for row.

#include <cstddef>
#include <utility>
#include <vector>

namespace ks::core {

// numpy 1.24's introsort: median-of-3 quicksort, the larger part deferred on a
// stack, insertion sort below 17 elements, heapsort past the depth limit 2*floor(log2 n).
namespace numpy_sort {

    template <typename Index, typename T>
    void heapArgsort(const std::vector<T>& v, Index* tosort, std::ptrdiff_t n)
    {
        Index* a = tosort - 1; // 1-based heap indexing as numpy
        auto siftDown = [&](std::ptrdiff_t i, std::ptrdiff_t size, Index tmp) {
            for (std::ptrdiff_t j = i * 2; j <= size;) {
                if (j < size && v[a[j]] < v[a[j + 1]])
                    ++j;
                if (!(v[tmp] < v[a[j]]))
                    break;
                a[i] = a[j];
                i = j;
                j += j;
            }
            a[i] = tmp;
        };
        for (std::ptrdiff_t l = n >> 1; l > 0; --l)
            siftDown(l, n, a[l]);
        while (n > 1) {
            const Index tmp = a[n];
            a[n] = a[1];
            --n;
            siftDown(1, n, tmp);
        }
    }

    template <typename Index, typename T>
    void partitionStep(const std::vector<T>& v, Index*& pl, Index*& pr, std::vector<Index*>& stack)
    {
        Index* pm = pl + ((pr - pl) >> 1);
        if (v[*pm] < v[*pl])
            std::swap(*pm, *pl);
        if (v[*pr] < v[*pm])
            std::swap(*pr, *pm);
        if (v[*pm] < v[*pl])
            std::swap(*pm, *pl);
        const T vp = v[*pm];
        Index* pi = pl;
        Index* pj = pr - 1;
        std::swap(*pm, *pj);
        for (;;) {
            do
                ++pi;
            while (v[*pi] < vp);
            do
                --pj;
            while (vp < v[*pj]);
            if (pi >= pj)
                break;
            std::swap(*pi, *pj);
        }
        std::swap(*pi, *(pr - 1));
        // The larger partition waits on the stack; the loop continues with the smaller.
        if (pi - pl < pr - pi) {
            stack.push_back(pi + 1);
            stack.push_back(pr);
            pr = pi - 1;
        } else {
            stack.push_back(pl);
            stack.push_back(pi - 1);
            pl = pi + 1;
        }
    }

    template <typename Index, typename T>
    void insertionArgsort(const std::vector<T>& v, Index* pl, Index* pr)
    {
        for (Index* pi = pl + 1; pi <= pr; ++pi) {
            const Index vi = *pi;
            Index* pj = pi;
            for (Index* pk = pi - 1; pj > pl && v[vi] < v[*pk]; --pk)
                *pj-- = *pk;
            *pj = vi;
        }
    }

} // namespace numpy_sort

// Index is the type of the returned positions (std::uint32_t where callers store them compactly).
template <typename Index = std::size_t, typename T>
std::vector<Index> numpyArgsort(const std::vector<T>& v)
{
    std::vector<Index> order(v.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = static_cast<Index>(i);
    if (v.size() < 2)
        return order;
    constexpr std::ptrdiff_t kSmallQuicksort = 15;
    int cdepth = 0;
    for (std::size_t n = v.size(); n >>= 1;)
        ++cdepth;
    cdepth *= 2;
    Index* pl = order.data();
    Index* pr = order.data() + order.size() - 1;
    std::vector<Index*> stack;
    std::vector<int> depths;
    for (;;) {
        if (cdepth < 0) {
            numpy_sort::heapArgsort(v, pl, pr - pl + 1);
        } else {
            while (pr - pl > kSmallQuicksort) {
                numpy_sort::partitionStep(v, pl, pr, stack);
                depths.push_back(--cdepth);
            }
            numpy_sort::insertionArgsort(v, pl, pr);
        }
        if (stack.empty())
            break;
        pr = stack.back();
        stack.pop_back();
        pl = stack.back();
        stack.pop_back();
        cdepth = depths.back();
        depths.pop_back();
    }
    return order;
}

// pandas sort_values(ascending=False) with quicksort (nargsort): argsort of the
// reversed values, mapped back and reversed.
template <typename T>
std::vector<std::size_t> numpyArgsortDescending(const std::vector<T>& v)
{
    const std::vector<T> reversed(v.rbegin(), v.rend());
    const std::vector<std::size_t> order = numpyArgsort(reversed);
    std::vector<std::size_t> indexer(order.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        indexer[order.size() - 1 - i] = v.size() - 1 - order[i];
    return indexer;
}

} // namespace ks::core

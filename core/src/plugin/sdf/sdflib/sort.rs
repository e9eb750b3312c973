//! `std::sort` as LLVM 17's libc++ implements it, which MuJoCo's plugin library is built
//! against (clang 17, libc++): the TriangleMeshDistance tree sorts triangles by one coordinate
//! of their first vertex, many keys tie, and the order libc++ leaves ties in decides the tree's
//! shape, hence which of equally near triangles a query finds first.
//!
//! The algorithm is libc++'s pattern-defeating introsort for non-arithmetic elements: small
//! ranges by sorting networks or insertion sort, median-of-three or ninther pivots, partitions
//! that keep keys equal to the pivot on its right (or on its left when the pivot equals the
//! element before the range), an early exit for already partitioned ranges, heap sort past the
//! depth limit. Every index stays inside the slice even for a comparator that is not a strict
//! weak order (where libc++ would read out of bounds); for a proper order that never changes
//! the result.

/// Ranges shorter than this are insertion-sorted (`__limit`).
const INSERTION_LIMIT: usize = 24;
/// Ranges longer than this take the ninther as pivot (`__ninther_threshold`).
const NINTHER_THRESHOLD: usize = 128;
/// Moves after which `__insertion_sort_incomplete` gives up.
const INCOMPLETE_LIMIT: usize = 8;

/// libc++'s `std::sort(v, less)`.
pub(super) fn sort<T: Copy>(v: &mut [T], less: &dyn Fn(T, T) -> bool) {
    if v.is_empty() {
        return;
    }
    let len = v.len();
    let depth = 2 * (usize::BITS - 1 - len.leading_zeros()) as usize;
    Sorter { v, less }.introsort(0, len, depth, true);
}

struct Sorter<'a, 'b, T> {
    v: &'a mut [T],
    less: &'b dyn Fn(T, T) -> bool,
}

impl<T: Copy> Sorter<'_, '_, T> {
    fn lt(&self, a: usize, b: usize) -> bool {
        (self.less)(self.v[a], self.v[b])
    }

    /// `__sort3`: orders three elements in 2 or 3 comparisons.
    fn sort3(&mut self, x: usize, y: usize, z: usize) {
        if !self.lt(y, x) {
            if !self.lt(z, y) {
                return;
            }
            self.v.swap(y, z);
            if self.lt(y, x) {
                self.v.swap(x, y);
            }
            return;
        }
        if self.lt(z, y) {
            self.v.swap(x, z);
            return;
        }
        self.v.swap(x, y);
        if self.lt(z, y) {
            self.v.swap(y, z);
        }
    }

    /// `__sort4` / `__sort5`: the first elements sorted, then each further one sunk into place.
    fn sort_network(&mut self, at: &[usize]) {
        self.sort3(at[0], at[1], at[2]);
        for n in 3..at.len() {
            for k in (0..n).rev() {
                if !self.lt(at[k + 1], at[k]) {
                    break;
                }
                self.v.swap(at[k], at[k + 1]);
            }
        }
    }

    /// Sorts ranges of at most five elements; false for longer ones.
    fn sort_small(&mut self, first: usize, last: usize) -> bool {
        match last - first {
            0 | 1 => {}
            2 => {
                if self.lt(last - 1, first) {
                    self.v.swap(first, last - 1);
                }
            }
            3 => self.sort3(first, first + 1, last - 1),
            4 => self.sort_network(&[first, first + 1, first + 2, last - 1]),
            5 => self.sort_network(&[first, first + 1, first + 2, first + 3, last - 1]),
            _ => return false,
        }
        true
    }

    /// Moves `v[i]` down past the larger elements before it, no further than `floor`; returns
    /// whether it moved.
    fn sink(&mut self, i: usize, floor: usize) -> bool {
        if !self.lt(i, i - 1) {
            return false;
        }
        let t = self.v[i];
        let mut j = i;
        loop {
            self.v[j] = self.v[j - 1];
            j -= 1;
            if j == floor || !(self.less)(t, self.v[j - 1]) {
                break;
            }
        }
        self.v[j] = t;
        true
    }

    /// `__insertion_sort`, or `__insertion_sort_unguarded` when an element not greater than any
    /// in the range precedes it (the bound then never matters).
    fn insertion_sort(&mut self, first: usize, last: usize) {
        for i in first + 1..last {
            self.sink(i, first);
        }
    }

    fn insertion_sort_unguarded(&mut self, first: usize, last: usize) {
        for i in first + 1..last {
            self.sink(i, 0);
        }
    }

    /// `__insertion_sort_incomplete`: insertion sort that gives up after a few moves; whether
    /// the range ended sorted.
    fn insertion_sort_incomplete(&mut self, first: usize, last: usize) -> bool {
        if self.sort_small(first, last) {
            return true;
        }
        self.sort3(first, first + 1, first + 2);
        let mut moved = 0;
        for i in first + 3..last {
            if self.sink(i, first) {
                moved += 1;
                if moved == INCOMPLETE_LIMIT {
                    return i + 1 == last;
                }
            }
        }
        true
    }

    /// `__partition_with_equals_on_right` around the pivot at `first`: the pivot's final place
    /// and whether the range was already partitioned.
    fn partition_right(&mut self, begin: usize, end: usize) -> (usize, bool) {
        let pivot = self.v[begin];
        let less = self.less;
        let (mut first, mut last) = (begin + 1, end);
        while first + 1 < end && less(self.v[first], pivot) {
            first += 1;
        }
        if first == begin + 1 {
            while first < last {
                last -= 1;
                if less(self.v[last], pivot) {
                    break;
                }
            }
        } else {
            last -= 1;
            while last > begin && !less(self.v[last], pivot) {
                last -= 1;
            }
        }
        let partitioned = first >= last;
        while first < last {
            self.v.swap(first, last);
            first += 1;
            while first + 1 < end && less(self.v[first], pivot) {
                first += 1;
            }
            last -= 1;
            while last > begin && !less(self.v[last], pivot) {
                last -= 1;
            }
        }
        let at = first - 1;
        self.v[begin] = self.v[at];
        self.v[at] = pivot;
        (at, partitioned)
    }

    /// `__partition_with_equals_on_left` around the pivot at `first`: the start of the
    /// elements greater than the pivot (those before it all equal the pivot).
    fn partition_left(&mut self, begin: usize, end: usize) -> usize {
        let pivot = self.v[begin];
        let less = self.less;
        let (mut first, mut last) = (begin + 1, end);
        if less(pivot, self.v[end - 1]) {
            while first + 1 < end && !less(pivot, self.v[first]) {
                first += 1;
            }
        } else {
            while first < last && !less(pivot, self.v[first]) {
                first += 1;
            }
        }
        if first < last {
            last -= 1;
            while last > begin && less(pivot, self.v[last]) {
                last -= 1;
            }
        }
        while first < last {
            self.v.swap(first, last);
            first += 1;
            while first + 1 < end && !less(pivot, self.v[first]) {
                first += 1;
            }
            last -= 1;
            while last > begin && less(pivot, self.v[last]) {
                last -= 1;
            }
        }
        let at = first - 1;
        self.v[begin] = self.v[at];
        self.v[at] = pivot;
        first
    }

    /// Moves the pivot (median of three, or ninther for long ranges) to `first`.
    fn choose_pivot(&mut self, first: usize, last: usize) {
        let len = last - first;
        let half = first + len / 2;
        if len > NINTHER_THRESHOLD {
            self.sort3(first, half, last - 1);
            self.sort3(first + 1, half - 1, last - 2);
            self.sort3(first + 2, half + 1, last - 3);
            self.sort3(half - 1, half, half + 1);
            self.v.swap(first, half);
        } else {
            self.sort3(half, first, last - 1);
        }
    }

    /// `__introsort` over `first..last`; `leftmost` when nothing of the slice precedes it.
    fn introsort(&mut self, mut first: usize, mut last: usize, mut depth: usize, leftmost: bool) {
        let mut leftmost = leftmost;
        loop {
            if self.sort_small(first, last) {
                return;
            }
            if last - first < INSERTION_LIMIT {
                if leftmost {
                    self.insertion_sort(first, last);
                } else {
                    self.insertion_sort_unguarded(first, last);
                }
                return;
            }
            if depth == 0 {
                self.heap_sort(first, last);
                return;
            }
            depth -= 1;
            self.choose_pivot(first, last);
            // a pivot equal to the element before the range (all of which are not greater):
            // the keys equal to it need no more sorting
            if !leftmost && !self.lt(first - 1, first) {
                first = self.partition_left(first, last);
                continue;
            }
            let (i, partitioned) = self.partition_right(first, last);
            if partitioned {
                let left_sorted = self.insertion_sort_incomplete(first, i);
                if self.insertion_sort_incomplete(i + 1, last) {
                    if left_sorted {
                        return;
                    }
                    last = i;
                    continue;
                } else if left_sorted {
                    first = i + 1;
                    continue;
                }
            }
            self.introsort(first, i, depth, leftmost);
            leftmost = false;
            first = i + 1;
        }
    }

    /// `__partial_sort(first, last, last)`: `make_heap`, then `sort_heap` by Floyd's pops.
    fn heap_sort(&mut self, first: usize, last: usize) {
        let n = last - first;
        if n > 1 {
            for start in (0..=(n - 2) / 2).rev() {
                self.sift_down(first, n, start);
            }
        }
        for len in (2..=n).rev() {
            self.pop_heap(first, len);
        }
    }

    /// `__sift_down` of the element at `start` in the heap `first..first + len`.
    fn sift_down(&mut self, first: usize, len: usize, mut start: usize) {
        if len < 2 || (len - 2) / 2 < start {
            return;
        }
        let mut child = self.larger_child(first, len, 2 * start + 1);
        if self.lt(first + child, first + start) {
            return;
        }
        let top = self.v[first + start];
        loop {
            self.v[first + start] = self.v[first + child];
            start = child;
            if (len - 2) / 2 < child {
                break;
            }
            child = self.larger_child(first, len, 2 * child + 1);
            if (self.less)(self.v[first + child], top) {
                break;
            }
        }
        self.v[first + start] = top;
    }

    /// The left child `child` or its right sibling when that exists and is larger.
    fn larger_child(&self, first: usize, len: usize, child: usize) -> usize {
        if child + 1 < len && self.lt(first + child, first + child + 1) {
            child + 1
        } else {
            child
        }
    }

    /// `__pop_heap`: the top to position `len - 1`, the hole it leaves pushed down to a leaf
    /// (Floyd) and filled by the last element, which then rises.
    fn pop_heap(&mut self, first: usize, len: usize) {
        let top = self.v[first];
        let mut hole = 0;
        let mut child = 0;
        loop {
            child = self.larger_child(first, len, 2 * child + 1);
            self.v[first + hole] = self.v[first + child];
            hole = child;
            if child > (len - 2) / 2 {
                break;
            }
        }
        let last = len - 1;
        if hole == last {
            self.v[first + hole] = top;
            return;
        }
        self.v[first + hole] = self.v[first + last];
        self.v[first + last] = top;
        self.sift_up(first, hole + 1);
    }

    /// `__sift_up` of the element at `len - 1` in the heap `first..first + len`.
    fn sift_up(&mut self, first: usize, len: usize) {
        if len < 2 {
            return;
        }
        let mut last = len - 1;
        let mut parent = (len - 2) / 2;
        if !self.lt(first + parent, first + last) {
            return;
        }
        let t = self.v[first + last];
        loop {
            self.v[first + last] = self.v[first + parent];
            last = parent;
            if parent == 0 {
                break;
            }
            parent = (parent - 1) / 2;
            if !(self.less)(self.v[first + parent], t) {
                break;
            }
        }
        self.v[first + last] = t;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    fn sorted_by_key(keys: &[u32]) -> Vec<u32> {
        let mut v: Vec<u32> = (0..keys.len() as u32).collect();
        sort(&mut v, &|a, b| keys[a as usize] < keys[b as usize]);
        v
    }

    fn check_sorted(keys: &[u32], v: &[u32]) {
        assert!(v
            .windows(2)
            .all(|w| keys[w[0] as usize] <= keys[w[1] as usize]));
        let mut seen = v.to_vec();
        seen.sort_unstable();
        assert_eq!(seen, (0..keys.len() as u32).collect::<Vec<_>>());
    }

    #[test]
    fn sorts_every_size_with_ties() {
        for n in 0..300u32 {
            let keys: Vec<u32> = (0..n).map(|i| (i * 7919) % 13).collect();
            check_sorted(&keys, &sorted_by_key(&keys));
        }
    }

    #[test]
    fn heap_sort_sorts() {
        let keys: Vec<u32> = (0..100).map(|i| (i * 37) % 101).collect();
        let mut v: Vec<u32> = (0..100).collect();
        let less = |a: u32, b: u32| keys[a as usize] < keys[b as usize];
        Sorter {
            v: &mut v,
            less: &less,
        }
        .heap_sort(0, 100);
        check_sorted(&keys, &v);
    }

    #[test]
    fn an_inconsistent_comparator_does_not_panic() {
        let mut v: Vec<u32> = (0..500).collect();
        sort(&mut v, &|_, _| true);
        sort(&mut v, &|a, b| (a ^ b) & 1 == 0);
    }
}

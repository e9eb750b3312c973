//! C++ standard library algorithms as libstdc++ implements them.
//!
//! MuJoCo's compiler calls `std::nth_element` (bounding volume hierarchies). When the comparison
//! is a strict total order any selection algorithm gives the same split, but MuJoCo's comparisons
//! treat values closer than `mjEPS` as ties broken by position, which is not always transitive;
//! reproducing libstdc++'s exact sequence of comparisons and swaps keeps the result identical
//! in those cases too.

/// `std::nth_element(v.begin(), v.begin() + nth, v.end(), less)` (libstdc++'s introselect).
pub fn nth_element<T, F: Fn(&T, &T) -> bool>(v: &mut [T], nth: usize, less: &F) {
    let n = v.len();
    if n == 0 || nth >= n {
        return;
    }
    let depth = 2 * (usize::BITS - 1 - n.leading_zeros()) as usize;
    introselect(v, nth, depth, less);
}

fn introselect<T, F: Fn(&T, &T) -> bool>(v: &mut [T], nth: usize, mut depth: usize, less: &F) {
    let (mut first, mut last) = (0, v.len());
    while last - first > 3 {
        if depth == 0 {
            heap_select(&mut v[first..last], nth + 1 - first, less);
            v.swap(first, nth);
            return;
        }
        depth -= 1;
        let cut = first + partition_pivot(&mut v[first..last], less);
        if cut <= nth {
            first = cut;
        } else {
            last = cut;
        }
    }
    insertion_sort(&mut v[first..last], less);
}

/// `std::__unguarded_partition_pivot`: median of three moved to the front, then Hoare
/// partition around it; returns the cut.
fn partition_pivot<T, F: Fn(&T, &T) -> bool>(v: &mut [T], less: &F) -> usize {
    let last = v.len();
    let mid = last / 2;
    move_median_to_first(v, 1, mid, last - 1, less);
    let (mut first, mut last) = (1, last);
    loop {
        while less(&v[first], &v[0]) {
            first += 1;
        }
        last -= 1;
        while less(&v[0], &v[last]) {
            last -= 1;
        }
        if first >= last {
            return first;
        }
        v.swap(first, last);
        first += 1;
    }
}

fn move_median_to_first<T, F: Fn(&T, &T) -> bool>(v: &mut [T], a: usize, b: usize, c: usize, less: &F) {
    let pick = if less(&v[a], &v[b]) {
        if less(&v[b], &v[c]) {
            b
        } else if less(&v[a], &v[c]) {
            c
        } else {
            a
        }
    } else if less(&v[a], &v[c]) {
        a
    } else if less(&v[b], &v[c]) {
        c
    } else {
        b
    };
    v.swap(0, pick);
}

/// `std::__insertion_sort`.
fn insertion_sort<T, F: Fn(&T, &T) -> bool>(v: &mut [T], less: &F) {
    for i in 1..v.len() {
        if less(&v[i], &v[0]) {
            v[..=i].rotate_right(1);
        } else {
            let mut j = i;
            while less(&v[j], &v[j - 1]) {
                v.swap(j, j - 1);
                j -= 1;
            }
        }
    }
}

/// `std::__heap_select(first, middle, last)`: the `middle` smallest elements end up in a
/// max-heap at the front.
fn heap_select<T, F: Fn(&T, &T) -> bool>(v: &mut [T], middle: usize, less: &F) {
    make_heap(&mut v[..middle], less);
    for i in middle..v.len() {
        if less(&v[i], &v[0]) {
            // __pop_heap(first, middle, i): the root goes to i, v[i] sifts in from the top
            v.swap(0, i);
            adjust_heap(&mut v[..middle], 0, less);
        }
    }
}

fn make_heap<T, F: Fn(&T, &T) -> bool>(v: &mut [T], less: &F) {
    let len = v.len();
    if len < 2 {
        return;
    }
    let mut parent = (len - 2) / 2;
    loop {
        adjust_heap(v, parent, less);
        if parent == 0 {
            return;
        }
        parent -= 1;
    }
}

/// `std::__adjust_heap` with the value at `hole`: move the hole down to a leaf along the larger
/// children, then push the value back up (`std::__push_heap`).
fn adjust_heap<T, F: Fn(&T, &T) -> bool>(v: &mut [T], mut hole: usize, less: &F) {
    let len = v.len();
    let top = hole;
    let mut second = hole;
    // the value travels with the hole: swapping keeps it at v[hole]
    while second < (len.saturating_sub(1)) / 2 {
        second = 2 * (second + 1);
        if less(&v[second], &v[second - 1]) {
            second -= 1;
        }
        v.swap(hole, second);
        hole = second;
    }
    if len & 1 == 0 && len >= 2 && second == (len - 2) / 2 {
        second = 2 * (second + 1);
        v.swap(hole, second - 1);
        hole = second - 1;
    }
    while hole > top {
        let parent = (hole - 1) / 2;
        if !less(&v[parent], &v[hole]) {
            break;
        }
        v.swap(hole, parent);
        hole = parent;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn nth_element_partitions(mut v in proptest::collection::vec(0i32..50, 1..80), k in 0usize..80) {
            let k = k % v.len();
            let mut sorted = v.clone();
            sorted.sort();
            nth_element(&mut v, k, &|a: &i32, b: &i32| a < b);
            prop_assert_eq!(v[k], sorted[k]);
            prop_assert!(v[..k].iter().all(|&x| x <= v[k]));
            prop_assert!(v[k + 1..].iter().all(|&x| x >= v[k]));
        }
    }

    #[test]
    fn heap_select_path_is_correct() {
        // a depth limit of zero exercises the heap fallback directly
        let mut v: Vec<i32> = (0..40).rev().collect();
        introselect(&mut v, 7, 0, &|a: &i32, b: &i32| a < b);
        assert_eq!(v[7], 7);
        assert!(v[..7].iter().all(|&x| x < 7));
    }
}

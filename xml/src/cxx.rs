//! C++ standard library algorithms as MuJoCo's release builds run them.
//!
//! MuJoCo's Python wheels are built with clang and libc++ 17, so `std::nth_element` (bounding
//! volume hierarchies) is libc++'s. When the comparison is a strict total order any selection
//! algorithm gives the same split, but MuJoCo's comparisons treat values closer than `mjEPS` as
//! ties broken by position, and degenerate mesh faces have non-finite centers: neither is a
//! consistent order, and only libc++'s exact sequence of comparisons and swaps reproduces
//! MuJoCo's hierarchies then.

/// `std::nth_element` as libc++ 17 implements it (`std::__nth_element`), the C++ library of
/// MuJoCo's release builds (clang, libc++ `abi:v170001`).
pub fn nth_element<T, F: Fn(&T, &T) -> bool>(v: &mut [T], nth: usize, less: &F) {
    let (mut first, mut last) = (0usize, v.len());
    const LIMIT: usize = 7;
    loop {
        if nth == last {
            return;
        }
        let len = last - first;
        match len {
            0 | 1 => return,
            2 => {
                if less(&v[last - 1], &v[first]) {
                    v.swap(first, last - 1);
                }
                return;
            }
            3 => {
                sort3(v, first, first + 1, last - 1, less);
                return;
            }
            _ => {}
        }
        if len <= LIMIT {
            selection_sort(&mut v[first..last], less);
            return;
        }
        let mut m = first + len / 2;
        let lm1 = last - 1;
        let mut n_swaps = sort3(v, first, m, lm1, less);
        let mut i = first;
        let mut j = lm1;
        if !less(&v[i], &v[m]) {
            // find a guard for the downward search
            let mut found = false;
            loop {
                j -= 1;
                if i == j {
                    break;
                }
                if less(&v[j], &v[m]) {
                    found = true;
                    break;
                }
            }
            if found {
                v.swap(i, j);
                n_swaps += 1;
            } else {
                i += 1;
                j = last;
                j -= 1;
                if !less(&v[first], &v[j]) {
                    loop {
                        if i == j {
                            return;
                        } else if less(&v[first], &v[i]) {
                            v.swap(i, j);
                            n_swaps += 1;
                            i += 1;
                            break;
                        }
                        i += 1;
                    }
                }
                if i == j {
                    return;
                }
                loop {
                    while !less(&v[first], &v[i]) {
                        i += 1;
                    }
                    loop {
                        j -= 1;
                        if !less(&v[first], &v[j]) {
                            break;
                        }
                    }
                    if i >= j {
                        break;
                    }
                    v.swap(i, j);
                    n_swaps += 1;
                    i += 1;
                }
                if nth < i {
                    return;
                }
                first = i;
                continue;
            }
        }
        i += 1;
        if i < j {
            loop {
                while less(&v[i], &v[m]) {
                    i += 1;
                }
                loop {
                    j -= 1;
                    if less(&v[j], &v[m]) {
                        break;
                    }
                }
                if i >= j {
                    break;
                }
                v.swap(i, j);
                n_swaps += 1;
                if m == i {
                    m = j;
                }
                i += 1;
            }
        }
        if i != m && less(&v[m], &v[i]) {
            v.swap(i, m);
            n_swaps += 1;
        }
        if nth == i {
            return;
        }
        if n_swaps == 0 {
            if nth < i {
                let (mut jj, mut mm) = (first, first);
                let mut sorted = false;
                loop {
                    jj += 1;
                    if jj == i {
                        sorted = true;
                        break;
                    }
                    if less(&v[jj], &v[mm]) {
                        break;
                    }
                    mm = jj;
                }
                if sorted {
                    return;
                }
            } else {
                let (mut jj, mut mm) = (i, i);
                let mut sorted = false;
                loop {
                    jj += 1;
                    if jj == last {
                        sorted = true;
                        break;
                    }
                    if less(&v[jj], &v[mm]) {
                        break;
                    }
                    mm = jj;
                }
                if sorted {
                    return;
                }
            }
        }
        if nth < i {
            last = i;
        } else {
            i += 1;
            first = i;
        }
    }
}

/// libc++'s `__sort3`: sorts three elements, returns the number of swaps.
fn sort3<T, F: Fn(&T, &T) -> bool>(v: &mut [T], x: usize, y: usize, z: usize, less: &F) -> u32 {
    if !less(&v[y], &v[x]) {
        if !less(&v[z], &v[y]) {
            return 0;
        }
        v.swap(y, z);
        if less(&v[y], &v[x]) {
            v.swap(x, y);
            return 2;
        }
        return 1;
    }
    if less(&v[z], &v[y]) {
        v.swap(x, z);
        return 1;
    }
    v.swap(x, y);
    if less(&v[z], &v[y]) {
        v.swap(y, z);
        return 2;
    }
    1
}

/// libc++'s `__selection_sort`.
fn selection_sort<T, F: Fn(&T, &T) -> bool>(v: &mut [T], less: &F) {
    let n = v.len();
    for first in 0..n.saturating_sub(1) {
        let mut min = first;
        for i in first + 1..n {
            if less(&v[i], &v[min]) {
                min = i;
            }
        }
        if min != first {
            v.swap(first, min);
        }
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
}

;; The semantic leg's scans (search/dot_scan.ts). Arguments are byte offsets into the imported
;; memory. Compiled by `deno task build:wasm`.
(module
  (import "env" "memory" (memory 1))

  ;; A lower bound of each row's dot product with the query, from int8 rows and an int16 query:
  ;; out[i] = scales[i] * (qscale * (row_i · q16) - c) for i < n. Rows are d16 int8 values each
  ;; (d16 a multiple of 16), back to back from `rows`; the integer sum is exact (the caller keeps
  ;; it under 2^31), so the only error is the quantisation's, which `c` bounds (search/dot_scan.ts).
  ;; The smallest and largest bound are stored at `minmax` (two f32) for the histogram.
  (func (export "scan_i8") (param $q i32) (param $rows i32) (param $scales i32) (param $n i32)
    (param $d16 i32) (param $qscale f32) (param $c f32) (param $out i32) (param $minmax i32)
    (local $i i32) (local $j i32) (local $row i32) (local $acc v128) (local $acc2 v128) (local $v v128)
    (local $x f32) (local $lo f32) (local $hi f32)
    (local.set $lo (f32.const inf))
    (local.set $hi (f32.const -inf))
    (local.set $row (local.get $rows))
    (block $done
      (loop $each_row
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $acc2 (v128.const i32x4 0 0 0 0))
        (local.set $j (i32.const 0))
        (block $row_done
          (loop $each_16
            (br_if $row_done (i32.ge_u (local.get $j) (local.get $d16)))
            (local.set $v (v128.load (i32.add (local.get $row) (local.get $j))))
            (local.set $acc
              (i32x4.add (local.get $acc)
                (i32x4.dot_i16x8_s
                  (i16x8.extend_low_i8x16_s (local.get $v))
                  (v128.load (i32.add (local.get $q) (i32.shl (local.get $j) (i32.const 1)))))))
            (local.set $acc2
              (i32x4.add (local.get $acc2)
                (i32x4.dot_i16x8_s
                  (i16x8.extend_high_i8x16_s (local.get $v))
                  (v128.load offset=16 (i32.add (local.get $q) (i32.shl (local.get $j) (i32.const 1)))))))
            (local.set $j (i32.add (local.get $j) (i32.const 16)))
            (br $each_16)))
        (local.set $acc (i32x4.add (local.get $acc) (local.get $acc2)))
        (local.set $x
          (f32.mul
            (f32.load (i32.add (local.get $scales) (i32.shl (local.get $i) (i32.const 2))))
            (f32.sub
              (f32.mul (local.get $qscale)
                (f32.convert_i32_s
                  (i32.add
                    (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
                    (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc))))))
              (local.get $c))))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2))) (local.get $x))
        (local.set $lo (f32.min (local.get $lo) (local.get $x)))
        (local.set $hi (f32.max (local.get $hi) (local.get $x)))
        (local.set $row (i32.add (local.get $row) (local.get $d16)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each_row)))
    (f32.store (local.get $minmax) (local.get $lo))
    (f32.store offset=4 (local.get $minmax) (local.get $hi)))

  ;; Selection: a histogram of the lower bounds over [lo, hi] in 1024 i32 buckets at `hist`, then
  ;; for a k the floor of the highest bucket with at least k bounds at or above it (at or below the
  ;; k-th largest bound, but for float rounding, which the caller's margin covers).
  (func (export "histogram") (param $lower i32) (param $n i32) (param $lo f32) (param $hi f32)
    (param $hist i32)
    (local $i i32) (local $scale f32) (local $at i32)
    (local.set $scale (f32.div (f32.const 1023) (f32.sub (local.get $hi) (local.get $lo))))
    (memory.fill (local.get $hist) (i32.const 0) (i32.const 4096))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        ;; (x - lo) * scale is at most 1023 (plus rounding, which truncation drops).
        (local.set $at
          (i32.add (local.get $hist)
            (i32.shl
              (i32.trunc_sat_f32_u
                (f32.mul (local.get $scale)
                  (f32.sub
                    (f32.load (i32.add (local.get $lower) (i32.shl (local.get $i) (i32.const 2))))
                    (local.get $lo))))
              (i32.const 2))))
        (i32.store (local.get $at) (i32.add (i32.load (local.get $at)) (i32.const 1)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each))))

  ;; The floor described above, or -inf when fewer than k bounds lie above bucket 0.
  (func (export "cut") (param $hist i32) (param $k i32) (param $lo f32) (param $hi f32) (result f32)
    (local $b i32) (local $seen i32)
    (local.set $b (i32.const 1023))
    (block $found
      (loop $down
        (local.set $seen
          (i32.add (local.get $seen)
            (i32.load (i32.add (local.get $hist) (i32.shl (local.get $b) (i32.const 2))))))
        (br_if $found (i32.ge_u (local.get $seen) (local.get $k)))
        (br_if $found (i32.eqz (local.get $b)))
        (local.set $b (i32.sub (local.get $b) (i32.const 1)))
        (br $down)))
    (if (result f32) (i32.eqz (local.get $b))
      (then (f32.const -inf))
      (else
        (f32.add (local.get $lo)
          (f32.div (f32.convert_i32_u (local.get $b))
            (f32.div (f32.const 1023) (f32.sub (local.get $hi) (local.get $lo))))))))

  ;; One pass writing two lists of rows, in order: to `exact` those whose upper bound
  ;; lower[i] + c2 * scales[i] reaches `floor`, to `pool` those whose lower bound reaches `poolFloor`.
  ;; Their lengths are stored at `counts` (two i32).
  (func (export "filter") (param $lower i32) (param $scales i32) (param $n i32) (param $c2 f32)
    (param $floor f32) (param $exact i32) (param $poolFloor f32) (param $pool i32) (param $counts i32)
    (local $i i32) (local $x f32) (local $m i32) (local $p i32)
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $x (f32.load (i32.add (local.get $lower) (i32.shl (local.get $i) (i32.const 2)))))
        (if (f32.ge
              (f32.add (local.get $x)
                (f32.mul (local.get $c2)
                  (f32.load (i32.add (local.get $scales) (i32.shl (local.get $i) (i32.const 2))))))
              (local.get $floor))
          (then
            (i32.store (i32.add (local.get $exact) (i32.shl (local.get $m) (i32.const 2))) (local.get $i))
            (local.set $m (i32.add (local.get $m) (i32.const 1)))))
        (if (f32.ge (local.get $x) (local.get $poolFloor))
          (then
            (i32.store (i32.add (local.get $pool) (i32.shl (local.get $p) (i32.const 2))) (local.get $i))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))
    (i32.store (local.get $counts) (local.get $m))
    (i32.store offset=4 (local.get $counts) (local.get $p)))

  ;; Exact float dot products of the query with chosen rows: out[k] = row_(slots[k]) · q for k < m.
  ;; Rows are d floats each (d a multiple of 4), back to back from `rows`; slots are i32.
  (func (export "gather") (param $q i32) (param $rows i32) (param $slots i32) (param $m i32)
    (param $d i32) (param $out i32)
    (local $k i32) (local $j i32) (local $row i32) (local $acc v128) (local $rowBytes i32)
    (local.set $rowBytes (i32.shl (local.get $d) (i32.const 2)))
    (block $done
      (loop $each_slot
        (br_if $done (i32.ge_u (local.get $k) (local.get $m)))
        (local.set $row
          (i32.add (local.get $rows)
            (i32.mul (local.get $rowBytes)
              (i32.load (i32.add (local.get $slots) (i32.shl (local.get $k) (i32.const 2)))))))
        (local.set $acc (v128.const f32x4 0 0 0 0))
        (local.set $j (i32.const 0))
        (block $row_done
          (loop $each_4
            (br_if $row_done (i32.ge_u (local.get $j) (local.get $rowBytes)))
            (local.set $acc
              (f32x4.add (local.get $acc)
                (f32x4.mul
                  (v128.load (i32.add (local.get $row) (local.get $j)))
                  (v128.load (i32.add (local.get $q) (local.get $j))))))
            (local.set $j (i32.add (local.get $j) (i32.const 16)))
            (br $each_4)))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 2)))
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $acc)) (f32x4.extract_lane 1 (local.get $acc)))
            (f32.add (f32x4.extract_lane 2 (local.get $acc)) (f32x4.extract_lane 3 (local.get $acc)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $each_slot)))))

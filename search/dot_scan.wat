;; The semantic leg's scans (search/dot_scan.ts). Arguments are byte offsets into the imported
;; memory. Compiled by `deno task build:wasm`.
(module
  (import "env" "memory" (memory 1))

  ;; A lower bound of each row's dot product with the query, from int8 rows and an int16 query:
  ;; out[i] = scales[i] * (qscale * (row_i · q16) - c) for i < n. Rows are d16 int8 values each
  ;; (d16 a multiple of 16), back to back from `rows`; the integer sum is exact (the caller keeps
  ;; it under 2^31), so the only error is the quantisation's, which `c` bounds (search/dot_scan.ts).
  (func (export "scan_i8") (param $q i32) (param $rows i32) (param $scales i32) (param $n i32)
    (param $d16 i32) (param $qscale f32) (param $c f32) (param $out i32)
    (local $i i32) (local $j i32) (local $row i32) (local $acc v128) (local $acc2 v128) (local $v v128)
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
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (f32.mul
            (f32.load (i32.add (local.get $scales) (i32.shl (local.get $i) (i32.const 2))))
            (f32.sub
              (f32.mul (local.get $qscale)
                (f32.convert_i32_s
                  (i32.add
                    (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
                    (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc))))))
              (local.get $c))))
        (local.set $row (i32.add (local.get $row) (local.get $d16)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each_row))))

  ;; The rows that can be among the k with the largest score, given each row's lower bound and its
  ;; upper bound lower[i] + c2 * scales[i]: a histogram of the lower bounds over their range (1024
  ;; i32 buckets at `hist`) finds a value at or below the k-th largest (its bucket's floor, less
  ;; `margin` for rounding), and every row whose upper bound reaches it is written to `slots`, in
  ;; order. Returns how many. With k >= n, or all bounds equal, every row.
  (func (export "select") (param $lower i32) (param $scales i32) (param $n i32) (param $k i32)
    (param $c2 f32) (param $margin f32) (param $hist i32) (param $slots i32) (result i32)
    (local $i i32) (local $x f32) (local $lo f32) (local $hi f32) (local $scale f32)
    (local $b i32) (local $seen i32) (local $floor f32) (local $m i32) (local $at i32)
    (local.set $lo (f32.const inf))
    (local.set $hi (f32.const -inf))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $x (f32.load (i32.add (local.get $lower) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $lo (f32.min (local.get $lo) (local.get $x)))
        (local.set $hi (f32.max (local.get $hi) (local.get $x)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))
    (local.set $floor (f32.const -inf))
    (if (i32.and (i32.lt_u (local.get $k) (local.get $n)) (f32.gt (local.get $hi) (local.get $lo)))
      (then
        (local.set $scale (f32.div (f32.const 1023) (f32.sub (local.get $hi) (local.get $lo))))
        (memory.fill (local.get $hist) (i32.const 0) (i32.const 4096))
        (local.set $i (i32.const 0))
        (block $done
          (loop $each
            (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
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
            (br $each)))
        ;; The highest bucket with at least k lower bounds at or above it (bucket 1023 holds hi;
        ;; a rounding overflow to 1024 cannot happen: (hi - lo) * scale rounds to at most 1023).
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
        (if (i32.gt_u (local.get $b) (i32.const 0))
          (then
            (local.set $floor
              (f32.sub
                (f32.add (local.get $lo) (f32.div (f32.convert_i32_u (local.get $b)) (local.get $scale)))
                (local.get $margin)))))))
    (local.set $i (i32.const 0))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (if (f32.ge
              (f32.add
                (f32.load (i32.add (local.get $lower) (i32.shl (local.get $i) (i32.const 2))))
                (f32.mul (local.get $c2)
                  (f32.load (i32.add (local.get $scales) (i32.shl (local.get $i) (i32.const 2))))))
              (local.get $floor))
          (then
            (i32.store (i32.add (local.get $slots) (i32.shl (local.get $m) (i32.const 2))) (local.get $i))
            (local.set $m (i32.add (local.get $m) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))
    (local.get $m))

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

;; Dot products of one query with many rows (search/dot_scan.ts): out[i] = row_i · q for i < n.
;; Rows are d floats each, stored back to back from `rows`; d is a multiple of 4. Arguments are
;; byte offsets into the imported memory. Compiled by `deno task build:wasm`.
(module
  (import "env" "memory" (memory 1))
  (func (export "scan") (param $q i32) (param $rows i32) (param $n i32) (param $d i32) (param $out i32)
    (local $i i32) (local $j i32) (local $row i32) (local $acc v128) (local $rowBytes i32)
    (local.set $rowBytes (i32.shl (local.get $d) (i32.const 2)))
    (local.set $row (local.get $rows))
    (block $done
      (loop $each_row
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
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
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $acc)) (f32x4.extract_lane 1 (local.get $acc)))
            (f32.add (f32x4.extract_lane 2 (local.get $acc)) (f32x4.extract_lane 3 (local.get $acc)))))
        (local.set $row (i32.add (local.get $row) (local.get $rowBytes)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each_row)))))

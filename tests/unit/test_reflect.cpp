// Tests for ferry/core/reflect.hpp: field counting, field types, and the kernel-value rules.
//
// Almost everything is decided at compile time, so most checks are static_asserts; each group
// sits in a TEST so that the suite lists what is covered, and field_count is also checked at run
// time through EXPECT_EQ.
#include <ferry/core/reflect.hpp>

#include <gtest/gtest.h>

#include <array>
#include <complex>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace {

using ferry::detail::field_count;
using ferry::detail::field_types;
using ferry::detail::kernel_value_reason;
using ferry::detail::kernel_value_verdict;
using ferry::detail::kernel_value_verdict_v;
using ferry::detail::type_list;

// --- types under test --------------------------------------------------------------------------

struct empty {};
struct one {
  double x;
};
struct point {
  double x, y, z;
};
enum class colour : std::uint8_t { red, green };
enum plain_enum { first, second };
// Built-in values that std::is_arithmetic leaves out under -std=c++20 (GCC and Clang).
#ifdef __SIZEOF_INT128__
__extension__ using int128 = __int128;
__extension__ using uint128 = unsigned __int128;
struct holds_int128 {
  int128 a;
  double b;
};
#endif
__extension__ using gnu_complex = _Complex double;
#if defined(__clang__)
// Clang takes C11 _Atomic in C++: no probe can initialise such a member, so ferry counts no
// field in this struct, which yet holds a pointer.
struct holds_atomic_pointer {
  _Atomic(double*) p;
};
#endif
struct particle {
  point pos;
  point vel;
  float mass;
  colour c;
  plain_enum e;
  const int id;
};
struct with_arrays {
  double a[3];
  int m[2][2];
  std::array<float, 4> sa;
  std::complex<double> z;
  std::complex<float> zf;
};
struct with_defaults {
  int n = 4;
  double h = 0.5;
};
struct with_bitfields {
  unsigned a : 3;
  unsigned b : 5;
  int c;
};
struct with_pointer {
  double* p;
};
struct with_const_pointer {
  const double* p;
};
struct with_function_pointer {
  double (*f)(double);
};
struct with_member_pointer {
  double point::*pm;
};
struct with_nullptr {
  std::nullptr_t n;
};
struct pointer_deep_inside {
  int n;
  struct {
    double x;
    struct {
      float f;
      with_pointer wp;
    } inner;
  } outer;
};
struct pointer_in_array {
  int n;
  std::array<with_pointer, 2> arr;
};
struct pointer_in_c_array {
  int* p[2];
};
struct with_ref {
  double& r;
};
struct with_const_ref {
  int n;
  const double& r;
};
struct with_rvalue_ref {
  double&& r;
};
union number {
  int i;
  float f;
};
struct with_union {
  int tag;
  number u;
};
struct with_anonymous_union {
  int tag;
  union {
    int i;
    float f;
  };
  double after;
};
class with_private {
 public:
  double get() const { return x_; }

 private:
  double x_ = 0;
};
struct holds_private {
  int n;
  with_private p;
};
class trusted {  // non-aggregate, default constructible, no pointers: trusted below
 public:
  trusted() = default;
  explicit trusted(double v) : v_{v} {}
  double value() const { return v_; }

 private:
  double v_ = 0;
};
class trusted_no_default {  // trusted, and no default constructor
 public:
  trusted_no_default(double x, double y) : x_{x}, y_{y} {}
  double sum() const { return x_ + y_; }

 private:
  double x_, y_;
};
union trusted_union {
  int i;
  float f;
};
struct holds_trusted {
  trusted t;
  trusted_union tu;
  double d;
};
struct holds_trusted_no_default {
  trusted_no_default nd;
  double a[2];
  point p;
  colour c;
};
// Needs `{p}` for the first member and `{}` for the second: still counted exactly.
struct mixed_constructors {
  trusted_no_default nd;
  std::complex<double> z;
};
// Known limit: a member that accepts only `{}` (a class with a converting constructor) before
// one that needs an initialiser (no default constructor) cannot be counted exactly, so the
// struct is rejected as uninspectable (never miscounted).
struct mixed_constructors_reversed {
  std::complex<double> z;
  trusted_no_default nd;
};
class trusted_with_string {  // trusting does not make a non-trivially-copyable type a value
 public:
  std::string s;
};
struct base {
  int b;
};
struct derived : base {
  int d;
};
struct tag {};
struct derived_from_empty : tag {
  int d;
};
struct with_string {
  std::string s;
};
struct with_vector {
  std::vector<double> v;
};
struct user_copy {
  user_copy() = default;
  user_copy(const user_copy&) {}
  int x = 0;
};
struct big {
  int f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20,
      f21, f22, f23;
};
struct max_size {
  int f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20,
      f21, f22, f23, f24, f25, f26, f27, f28, f29, f30, f31;
};
struct too_big {
  int f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20,
      f21, f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32;
};
struct holds_empty {
  empty e;
  int x;
  empty f;
};
struct tuple_like_agg {
  int a, b;
};

}  // namespace

template <>
struct ferry::trust_as_kernel_value<trusted> : std::true_type {};
template <>
struct ferry::trust_as_kernel_value<trusted_no_default> : std::true_type {};
template <>
struct ferry::trust_as_kernel_value<trusted_union> : std::true_type {};
template <>
struct ferry::trust_as_kernel_value<trusted_with_string> : std::true_type {};
template <>
struct ferry::trust_as_kernel_value<int*> : std::true_type {};  // ignored: not a class
template <>
struct std::tuple_size<tuple_like_agg> : std::integral_constant<std::size_t, 1> {};

namespace {

template <class T>
constexpr kernel_value_verdict verdict = kernel_value_verdict_v<T>;

// --- field_count -------------------------------------------------------------------------------

TEST(reflect, field_count_plain_structs) {
  static_assert(field_count<empty>() == 0);
  static_assert(field_count<one>() == 1);
  static_assert(field_count<point>() == 3);
  static_assert(field_count<const point>() == 3);
  static_assert(field_count<with_defaults>() == 2);
  static_assert(field_count<big>() == 24);
  static_assert(field_count<max_size>() == 32);
  EXPECT_EQ(field_count<empty>(), 0u);
  EXPECT_EQ(field_count<point>(), 3u);
  EXPECT_EQ(field_count<big>(), 24u);
  EXPECT_EQ(field_count<max_size>(), ferry::detail::max_fields);
  EXPECT_EQ(field_count<too_big>(), ferry::detail::unknown_field_count);
}

TEST(reflect, field_count_ignores_brace_elision) {
  // Nested structs, C arrays and std::array count once each, not once per scalar inside.
  static_assert(field_count<particle>() == 6);
  static_assert(field_count<with_arrays>() == 5);
  static_assert(field_count<pointer_deep_inside>() == 2);
  static_assert(field_count<pointer_in_c_array>() == 1);
  static_assert(field_count<holds_empty>() == 3);
  EXPECT_EQ(field_count<particle>(), 6u);
  EXPECT_EQ(field_count<with_arrays>(), 5u);
}

TEST(reflect, field_count_other_members) {
  static_assert(field_count<with_bitfields>() == 3);
  static_assert(field_count<with_ref>() == 1);  // counted with bare probes
  static_assert(field_count<with_const_ref>() == 2);
  static_assert(field_count<with_rvalue_ref>() == 1);
  static_assert(field_count<with_anonymous_union>() == 3);
  static_assert(field_count<holds_trusted>() == 3);
  static_assert(field_count<holds_trusted_no_default>() == 4);  // {p} probes: no default ctor
  static_assert(field_count<mixed_constructors>() == 2);
  EXPECT_EQ(field_count<holds_trusted_no_default>(), 4u);
  EXPECT_EQ(field_count<with_bitfields>(), 3u);
}

TEST(reflect, field_count_counts_bases_as_elements) {
  // Aggregate elements are the direct bases, then the direct members.
  static_assert(field_count<derived>() == 2);
  static_assert(field_count<derived_from_empty>() == 2);
  EXPECT_EQ(field_count<derived>(), 2u);
}

TEST(reflect, field_types_keep_declared_types) {
  static_assert(std::is_same_v<field_types<point>, type_list<double, double, double>>);
  static_assert(std::is_same_v<field_types<particle>,
                               type_list<point, point, float, colour, plain_enum, const int>>);
  static_assert(std::is_same_v<field_types<with_arrays>,
                               type_list<double[3], int[2][2], std::array<float, 4>,
                                         std::complex<double>, std::complex<float>>>);
  static_assert(std::is_same_v<field_types<with_const_ref>, type_list<int, const double&>>);
  static_assert(std::is_same_v<field_types<with_bitfields>, type_list<unsigned, unsigned, int>>);
  static_assert(std::is_same_v<field_types<empty>, type_list<>>);
  SUCCEED();
}

// --- accepted ----------------------------------------------------------------------------------

TEST(reflect, scalars_and_enums_are_kernel_values) {
  static_assert(ferry::is_kernel_value_v<int>);
  static_assert(ferry::is_kernel_value_v<double>);
  static_assert(ferry::is_kernel_value_v<const float>);
  static_assert(ferry::is_kernel_value_v<bool>);
  static_assert(ferry::is_kernel_value_v<char>);
  static_assert(ferry::is_kernel_value_v<std::size_t>);
  static_assert(ferry::is_kernel_value_v<colour>);
  static_assert(ferry::is_kernel_value_v<plain_enum>);
  static_assert(ferry::is_kernel_value_v<std::complex<float>>);
  static_assert(ferry::is_kernel_value_v<std::complex<double>>);
  // The compilers' other built-in values, neither arithmetic (under -std=c++20) nor classes.
#ifdef __SIZEOF_INT128__
  static_assert(ferry::is_kernel_value_v<int128>);
  static_assert(ferry::is_kernel_value_v<const uint128>);
  static_assert(ferry::is_kernel_value_v<uint128[2]>);
  static_assert(ferry::is_kernel_value_v<holds_int128>);
#endif
#if defined(__FLT16_MAX__)
  static_assert(ferry::is_kernel_value_v<_Float16>);
#endif
  static_assert(ferry::is_kernel_value_v<gnu_complex>);
  // What makes them values: trivially copyable, and they multiply (pointers do not).
  static_assert(ferry::detail::builtin_number<gnu_complex>);
  static_assert(!ferry::detail::builtin_number<double*>);
  static_assert(!ferry::detail::builtin_number<colour>);
  static_assert(!ferry::detail::builtin_number<point>);
  static_assert(ferry::detail::builtin_fractional<gnu_complex>());
  static_assert(!ferry::detail::builtin_fractional<int>() &&
                !ferry::detail::builtin_fractional<bool>());
#if defined(__clang__)
  static_assert(!ferry::is_kernel_value_v<holds_atomic_pointer>);
  static_assert(kernel_value_verdict_v<holds_atomic_pointer> ==
                kernel_value_verdict::uninitialisable_member);
  static_assert(!ferry::is_kernel_value_v<_Atomic(double*)>);        // not trivially copyable
  static_assert(!ferry::holds_unchecked_array_v<_Atomic(double*)>);  // subscripts, no array
#endif
  static_assert(ferry::kernel_value<double>);
  static_assert(ferry::is_kernel_value<int>::value);
  EXPECT_STREQ(kernel_value_reason<double>(), "is a kernel value");
}

TEST(reflect, arrays_of_values_are_kernel_values) {
  static_assert(ferry::is_kernel_value_v<std::array<double, 3>>);
  static_assert(ferry::is_kernel_value_v<std::array<point, 2>>);
  static_assert(ferry::is_kernel_value_v<std::array<int, 0>>);
  static_assert(ferry::is_kernel_value_v<double[4]>);
  static_assert(ferry::is_kernel_value_v<point[2][3]>);
  SUCCEED();
}

TEST(reflect, aggregates_of_values_are_kernel_values) {
  static_assert(ferry::is_kernel_value_v<empty>);
  static_assert(ferry::is_kernel_value_v<one>);
  static_assert(ferry::is_kernel_value_v<point>);
  static_assert(ferry::is_kernel_value_v<const point>);
  static_assert(ferry::is_kernel_value_v<particle>);  // nested, enums, const member
  static_assert(ferry::is_kernel_value_v<with_arrays>);
  static_assert(ferry::is_kernel_value_v<with_defaults>);
  static_assert(ferry::is_kernel_value_v<with_bitfields>);
  static_assert(ferry::is_kernel_value_v<holds_empty>);
  static_assert(ferry::is_kernel_value_v<big>);
  static_assert(ferry::is_kernel_value_v<max_size>);
  static_assert(ferry::kernel_value<particle>);
  EXPECT_STREQ(kernel_value_reason<particle>(), "is a kernel value");
}

TEST(reflect, trusted_types_are_kernel_values) {
  static_assert(ferry::is_kernel_value_v<trusted>);
  static_assert(ferry::is_kernel_value_v<trusted_no_default>);
  static_assert(ferry::is_kernel_value_v<trusted_union>);
  static_assert(ferry::is_kernel_value_v<const trusted>);
  static_assert(ferry::is_kernel_value_v<holds_trusted>);
  static_assert(ferry::is_kernel_value_v<holds_trusted_no_default>);
  static_assert(ferry::is_kernel_value_v<mixed_constructors>);
  static_assert(verdict<mixed_constructors_reversed> ==
                kernel_value_verdict::uninitialisable_member);
  static_assert(ferry::is_kernel_value_v<std::array<trusted, 3>>);
  static_assert(ferry::is_inspectable_v<holds_trusted>);
  // Trust does not override the other rules.
  static_assert(verdict<trusted_with_string> == kernel_value_verdict::not_trivially_copyable);
  static_assert(verdict<int*> == kernel_value_verdict::raw_pointer);
  SUCCEED();
}

// --- rejected ----------------------------------------------------------------------------------

TEST(reflect, pointers_are_rejected) {
  static_assert(verdict<double*> == kernel_value_verdict::raw_pointer);
  static_assert(verdict<const double*> == kernel_value_verdict::raw_pointer);
  static_assert(verdict<double* const> == kernel_value_verdict::raw_pointer);
  static_assert(verdict<void*> == kernel_value_verdict::raw_pointer);
  static_assert(verdict<double (*)(double)> == kernel_value_verdict::raw_pointer);
  static_assert(verdict<double point::*> == kernel_value_verdict::member_pointer);
  static_assert(verdict<void (with_private::*)()> == kernel_value_verdict::member_pointer);
  static_assert(verdict<std::nullptr_t> == kernel_value_verdict::null_pointer);
  static_assert(!ferry::kernel_value<int*>);
  static_assert(!ferry::has_pointer_member_v<int*>);
  EXPECT_NE(std::strstr(kernel_value_reason<int*>(), "is a raw pointer"), nullptr);
}

TEST(reflect, pointer_members_are_rejected) {
  static_assert(ferry::has_pointer_member_v<with_pointer>);
  static_assert(ferry::has_pointer_member_v<with_const_pointer>);
  static_assert(ferry::has_pointer_member_v<with_function_pointer>);
  static_assert(ferry::has_pointer_member_v<with_member_pointer>);
  static_assert(ferry::has_pointer_member_v<with_nullptr>);
  static_assert(ferry::has_pointer_member_v<pointer_deep_inside>);
  static_assert(ferry::has_pointer_member_v<pointer_in_array>);
  static_assert(ferry::has_pointer_member_v<pointer_in_c_array>);
  static_assert(ferry::has_pointer_member_v<std::array<int*, 2>>);
  static_assert(ferry::has_pointer_member_v<with_pointer[2]>);
  static_assert(!ferry::is_kernel_value_v<pointer_deep_inside>);
  static_assert(ferry::is_inspectable_v<pointer_deep_inside>);
  EXPECT_NE(std::strstr(kernel_value_reason<pointer_deep_inside>(), "holds a pointer member"),
            nullptr);
}

TEST(reflect, references_are_rejected) {
  static_assert(verdict<double&> == kernel_value_verdict::reference);
  static_assert(verdict<const point&> == kernel_value_verdict::reference);
  static_assert(verdict<point&&> == kernel_value_verdict::reference);
  static_assert(ferry::has_reference_member_v<with_const_ref>);
  static_assert(ferry::has_reference_member_v<with_rvalue_ref>);
  // A non-const lvalue reference cannot be value-initialised, so ferry cannot probe the struct.
  static_assert(verdict<with_ref> == kernel_value_verdict::uninitialisable_member);
  static_assert(!ferry::is_kernel_value_v<with_ref>);
  static_assert(!ferry::is_inspectable_v<with_ref>);
  EXPECT_NE(std::strstr(kernel_value_reason<with_ref>(), "reference"), nullptr);
  EXPECT_NE(std::strstr(kernel_value_reason<with_const_ref>(), "holds a reference member"),
            nullptr);
}

TEST(reflect, unions_are_rejected) {
  static_assert(verdict<number> == kernel_value_verdict::union_type);
  static_assert(verdict<with_union> == kernel_value_verdict::union_member);
  static_assert(verdict<with_anonymous_union> == kernel_value_verdict::union_member);
  static_assert(verdict<std::array<number, 2>> == kernel_value_verdict::union_member);
  static_assert(!ferry::is_inspectable_v<number>);
  static_assert(!ferry::is_inspectable_v<with_anonymous_union>);
  EXPECT_NE(std::strstr(kernel_value_reason<number>(), "is a union"), nullptr);
}

TEST(reflect, non_aggregate_classes_are_rejected) {
  static_assert(verdict<with_private> == kernel_value_verdict::non_aggregate_class);
  static_assert(verdict<holds_private> == kernel_value_verdict::uninspectable_member);
  static_assert(verdict<std::complex<long double>> == kernel_value_verdict::non_aggregate_class);
  constexpr auto lambda = [](int i) { return i; };
  static_assert(verdict<decltype(lambda)> == kernel_value_verdict::non_aggregate_class);
  static_assert(!ferry::is_kernel_value_v<std::pair<int, int>>);  // libstdc++: not trivially
                                                                  // copyable either
  static_assert(!ferry::is_inspectable_v<with_private>);
  EXPECT_STREQ(kernel_value_reason<with_private>(),
               "is a non-aggregate class: ferry cannot inspect its members; make it an aggregate, "
               "or, only if it holds no pointer, view or handle at any depth, specialise "
               "ferry::trust_as_kernel_value");
}

TEST(reflect, non_trivially_copyable_types_are_rejected) {
  static_assert(verdict<std::string> == kernel_value_verdict::not_trivially_copyable);
  static_assert(verdict<std::vector<double>> == kernel_value_verdict::not_trivially_copyable);
  static_assert(verdict<with_string> == kernel_value_verdict::not_trivially_copyable);
  static_assert(verdict<with_vector> == kernel_value_verdict::not_trivially_copyable);
  static_assert(verdict<user_copy> == kernel_value_verdict::not_trivially_copyable);
  static_assert(verdict<std::array<std::string, 2>> ==
                kernel_value_verdict::non_trivially_copyable_member);
  EXPECT_NE(std::strstr(kernel_value_reason<with_string>(), "not trivially copyable"), nullptr);
}

TEST(reflect, aggregates_with_bases_are_rejected) {
  // Decision: ferry inspects direct members only. A structured binding cannot see members spread
  // over a class and its bases, and even an empty base shifts the aggregate elements, so any
  // base class makes the aggregate uninspectable; trust_as_kernel_value is the way out.
  static_assert(verdict<derived> == kernel_value_verdict::base_class);
  static_assert(verdict<derived_from_empty> == kernel_value_verdict::base_class);
  static_assert(!ferry::is_inspectable_v<derived>);
  EXPECT_NE(std::strstr(kernel_value_reason<derived>(), "base class"), nullptr);
}

TEST(reflect, other_rejections) {
  static_assert(verdict<void> == kernel_value_verdict::not_an_object);
  static_assert(verdict<int(int)> == kernel_value_verdict::not_an_object);
  static_assert(verdict<int[]> == kernel_value_verdict::unbounded_array);
  static_assert(verdict<too_big> == kernel_value_verdict::too_many_fields);
  static_assert(verdict<tuple_like_agg> == kernel_value_verdict::tuple_like);
  static_assert(verdict<std::array<with_private, 1>> == kernel_value_verdict::uninspectable_member);
  SUCCEED();
}

TEST(reflect, every_verdict_has_a_reason) {
  for (int v = 0; v <= static_cast<int>(kernel_value_verdict::non_trivially_copyable_member); ++v) {
    const char* text = ferry::detail::describe(static_cast<kernel_value_verdict>(v));
    ASSERT_NE(text, nullptr);
    EXPECT_GT(std::strlen(text), 10u) << v;
  }
}

}  // namespace

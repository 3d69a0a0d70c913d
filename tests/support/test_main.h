#pragma once

// Every Qt Test file of a test folder is linked into one executable
// (ks_add_test_folder in tests/CMakeLists.txt): a file ends in
// KS_TEST_MAIN(its file stem, its test class) where it would end in QTEST_MAIN.
// That defines the entry the folder's generated main (test_main.cpp.in) calls
// when its first argument names the file. ctest runs one file per process, so
// a test sees a fresh process and its own command line, as under QTEST_MAIN.

#include <QTest>

#define KS_TEST_MAIN(stem, TestClass)                                                                        \
    int ksTestEntry_##stem(int argc, char** argv)                                                            \
    {                                                                                                        \
        TestClass test;                                                                                      \
        QTEST_SET_MAIN_SOURCE_PATH                                                                           \
        return QTest::qExec(&test, argc, argv);                                                              \
    }

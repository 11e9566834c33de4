/* Compiled as the cg workload's sources are (tests/CMakeLists.txt): the
 * dslash workload's private header is out of cg's reach, so this must not
 * build (the test expects the compiler to say dslash.h is not found). */
#include "clb_workload.h"
#include "dslash.h"

int include_rule_crossing(void);
int include_rule_crossing(void)
{
    return (int)clb_dslash_flops_site(1);
}

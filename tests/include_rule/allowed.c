/* Compiled as the cg workload's sources are (tests/CMakeLists.txt): what cg
 * may include, the interface, its own header and lattice/, builds. */
#include "clb_workload.h"
#include "cg.h"
#include "lattice_wl.h"

int include_rule_allowed(void);
int include_rule_allowed(void)
{
    return LAT_HALO;
}
